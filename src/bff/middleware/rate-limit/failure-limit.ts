/**
 * @module A limit on refused credentials per client address: the handlers after it answer as usual, but every
 * 401 they throw spends a point, and an address out of points gets 429 with `Retry-After` before its key is
 * even looked at (a right key then would tell a guesser it was right). Same limiter as the request limits
 * (memory, or Redis shared by replicas); a broken store lets requests through, as the request limits do.
 */
import type { MiddlewareHandler } from 'hono'
import { RateLimiterRes } from 'rate-limiter-flexible'
import { retryAfterSeconds } from '../../../http/retry.ts'
import { bffError } from '../../errors.ts'
import type { RateLimitOptions } from './index.ts'

/** Wrong keys one address may send per window before it waits: enough for a typo and a redeploy. */
export const AUTH_FAILURE_POINTS = 10

const tooMany = (msBeforeNext: number) =>
  bffError(429, 'rate_limited', 'Too many refused keys from this address: retry after Retry-After', {
    headers: { 'retry-after': retryAfterSeconds(msBeforeNext) },
  })

export function authFailureLimit(options: RateLimitOptions & { points: number }): MiddlewareHandler {
  return async function authFailureLimit(c, next) {
    const key = options.key(c)
    const seen = await options.limiter.get(key).catch((err: unknown) => {
      options.logger?.warn({ err }, 'rate limiter store failed; request let through')
      return null
    })
    if (seen && seen.consumedPoints >= options.points) {
      options.metrics?.rateLimited.inc({ route: options.route })
      throw tooMany(seen.msBeforeNext)
    }
    // Hono turns a thrown 401 into the response before `next` returns, so the status is what counts.
    await next()
    if (c.res.status !== 401) return
    try {
      await options.limiter.consume(key)
    } catch (result) {
      if (!(result instanceof RateLimiterRes)) {
        options.logger?.warn({ err: result }, 'rate limiter store failed; request let through')
        return
      }
      options.metrics?.rateLimited.inc({ route: options.route })
      throw tooMany(result.msBeforeNext)
    }
  }
}
