/**
 * @module Security headers (the set hono/secure-headers sends by default), written before the handler
 * runs so each response is built once with them instead of being rewritten after. Assets (widget
 * script, logos, pixels) are embedded by other sites, so they get `Cross-Origin-Resource-Policy:
 * cross-origin`; the API keeps `same-origin` and is read through CORS.
 */
import type { MiddlewareHandler } from 'hono'

const COMMON: ReadonlyArray<[string, string]> = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
]

export interface SecurityHeadersOptions {
  /** Paths under this prefix are the API (`same-origin` resource policy); default `/api/`. */
  apiPrefix?: string
}

export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  const apiPrefix = options.apiPrefix ?? '/api/'
  return async function securityHeaders(c, next) {
    for (const [name, value] of COMMON) c.header(name, value)
    c.header(
      'Cross-Origin-Resource-Policy',
      c.req.path.startsWith(apiPrefix) ? 'same-origin' : 'cross-origin',
    )
    await next()
  }
}
