/**
 * @module CORS for the widget's API: exact origins from `ALLOWED_ORIGINS`, never `*`, never an unlisted
 * origin reflected. A preflight from an unlisted origin is refused outright (403) so the failure is
 * visible in the network panel, not only as a console CORS error, and logged with the fix (once per origin
 * per `logEveryMs`, for at most `MAX_LOGGED_ORIGINS` origins at a time, so a flood of made-up origins
 * cannot flood the log). Headers are set before the handler runs, so the response is built once with them
 * (the hot path of every API request).
 */
import type { MiddlewareHandler } from 'hono'
import { ACCESS_TOKEN_HEADER, WIDGET_HEADER } from '../../../contract/bff.ts'
import { httpError } from '../../../http/errors.ts'
import { type Clock, systemTimers } from '../../../http/timers.ts'
import type { Logger } from '../../logger.ts'

const MAX_LOGGED_ORIGINS = 100

export interface WidgetCorsOptions {
  allowedOrigins: readonly string[]
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAgeSeconds?: number
  /** Where a refused preflight is reported, with the `ALLOWED_ORIGINS` that would allow it. */
  logger?: Pick<Logger, 'warn'>
  /** An origin refused again within this long is not logged again; default 10 minutes. */
  logEveryMs?: number
  /** The clock; `systemTimers` by default. */
  timers?: Clock
}

export function widgetCors(options: WidgetCorsOptions): MiddlewareHandler {
  const allowed = new Set(options.allowedOrigins.filter((origin) => origin !== '*'))
  const allowHeaders = ['Content-Type', WIDGET_HEADER, ACCESS_TOKEN_HEADER, 'Idempotency-Key'].join(', ')
  const maxAge = String(options.maxAgeSeconds ?? 600)
  const logEveryMs = options.logEveryMs ?? 10 * 60_000
  const timers = options.timers ?? systemTimers
  const now = () => timers.now()
  const loggedAt = new Map<string, number>()
  const reportRefused = (origin: string) => {
    const at = now()
    const last = loggedAt.get(origin)
    if (last !== undefined && at - last < logEveryMs) return
    if (last === undefined && loggedAt.size >= MAX_LOGGED_ORIGINS) {
      for (const [known, time] of loggedAt) if (at - time >= logEveryMs) loggedAt.delete(known)
      if (loggedAt.size >= MAX_LOGGED_ORIGINS) return
    }
    loggedAt.set(origin, at)
    options.logger?.warn(
      { origin },
      `CORS: refused a preflight from ${origin}, which is not in ALLOWED_ORIGINS; if it is a publisher page, set ALLOWED_ORIGINS=${[...allowed, origin].join(',')}`,
    )
  }
  return async function widgetCors(c, next) {
    // Answers differ by Origin, so shared caches must key on it (issuers are cacheable).
    c.header('Vary', 'Origin')
    const origin = c.req.header('origin')
    const listed = origin !== undefined && allowed.has(origin)
    if (c.req.method === 'OPTIONS' && origin !== undefined) {
      if (!listed) {
        if (options.logger) reportRefused(origin.slice(0, 200))
        throw httpError(403, 'forbidden', `Origin ${origin.slice(0, 200)} is not in ALLOWED_ORIGINS`)
      }
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': allowHeaders,
        'access-control-max-age': maxAge,
        vary: 'Origin, Access-Control-Request-Headers',
      })
    }
    if (listed) {
      c.header('Access-Control-Allow-Origin', origin)
      // Second-Look-Duplicate: a second-look 201 that answers an applicant with their first application.
      c.header('Access-Control-Expose-Headers', 'Retry-After, Second-Look-Duplicate')
    }
    await next()
  }
}
