/**
 * @module CORS for the widget's API: exact origins from `ALLOWED_ORIGINS`, never `*`, never an unlisted
 * origin reflected. A preflight from an unlisted origin is refused outright (403) so the failure is
 * visible in the network panel, not only as a console CORS error.
 */
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { ACCESS_TOKEN_HEADER, WIDGET_HEADER } from '../../../contract/bff.ts'
import { bffError } from '../../errors.ts'

export interface WidgetCorsOptions {
  allowedOrigins: readonly string[]
}

export function widgetCors(options: WidgetCorsOptions): MiddlewareHandler {
  const allowed = new Set(options.allowedOrigins.filter((origin) => origin !== '*'))
  const inner = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type', WIDGET_HEADER, ACCESS_TOKEN_HEADER],
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
  })
  return async function widgetCors(c, next) {
    const origin = c.req.header('origin')
    if (c.req.method === 'OPTIONS' && origin !== undefined && !allowed.has(origin)) {
      throw bffError(403, 'forbidden', `Origin ${origin.slice(0, 200)} is not in ALLOWED_ORIGINS`)
    }
    return inner(c, next)
  }
}
