/**
 * @module Every state-changing request must carry `X-Offer-Widget`. A custom header makes every
 * cross-site POST a preflighted one, so only ALLOWED_ORIGINS can create searches from a browser; a plain
 * HTML form or a `no-cors` fetch from another site cannot send it.
 */
import type { MiddlewareHandler } from 'hono'
import { WIDGET_HEADER } from '../../../contract/bff.ts'
import { httpError } from '../../../http/errors.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function requireWidgetHeader(): MiddlewareHandler {
  return async function requireWidgetHeader(c, next) {
    // Authorization is no CORS-safelisted header either, so a request carrying it was preflighted just
    // the same: a partner's server-to-server postback (`POST /api/conversions`) sends its bearer instead.
    if (
      !SAFE_METHODS.has(c.req.method) &&
      !c.req.header(WIDGET_HEADER)?.trim() &&
      !c.req.header('authorization')?.trim()
    ) {
      throw httpError(403, 'forbidden', `Send the ${WIDGET_HEADER} header (the widget sends its version)`)
    }
    await next()
  }
}
