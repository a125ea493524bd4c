/**
 * @module Routes meant for servers only: any request carrying an `Origin` header (every cross-origin
 * browser request, preflights included, and same-origin POSTs) is refused with 403 and no CORS headers,
 * so a server key that leaked into a page still cannot be used from a browser.
 */
import type { MiddlewareHandler } from 'hono'
import { httpError } from '../../../http/errors.ts'

export function refuseBrowsers(): MiddlewareHandler {
  return async function refuseBrowsers(c, next) {
    if (c.req.header('origin') !== undefined) {
      throw httpError(
        403,
        'forbidden',
        'This route is for your server only: call it from server code (no Origin header), never a browser',
      )
    }
    await next()
  }
}
