/**
 * @module Counts and times every answer by route pattern (never the raw path, which would make one
 * series per uuid) and status.
 */
import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import type { Clock } from '../../../http/timers.ts'
import type { BffMetrics } from '../../metrics.ts'

export interface RequestMetricsOptions {
  metrics: BffMetrics
  /** The clock of durations; `performance.now()` (monotonic) by default. */
  timers?: Clock
}

const MONOTONIC: Clock = { now: () => performance.now() }

export function requestMetrics(options: RequestMetricsOptions): MiddlewareHandler {
  const timers = options.timers ?? MONOTONIC
  const now = () => timers.now()
  return async function requestMetrics(c, next) {
    const started = now()
    // Hono hands a thrown Error to `onError`; anything else thrown escapes the chain, and the server then
    // answers 500 while `c.res` still holds its default 200.
    let escaped = false
    try {
      await next()
    } catch (thrown) {
      escaped = true
      throw thrown
    } finally {
      // The route that answered (Hono's current route index after the chain ran): `/api/offer-searches/:uuid`,
      // not the `/*` of this middleware nor the last route that merely matched. Unmatched paths count as `/*`.
      const status = escaped ? '500' : String(c.res.status)
      const labels = { method: c.req.method, route: routePath(c), status }
      options.metrics.httpRequests.inc(labels)
      options.metrics.httpDuration.observe(labels, (now() - started) / 1000)
    }
  }
}
