/**
 * @module A limit on refused credentials per client address: the key is checked first, as if there were no
 * limit, and only a refusal (a 401 from the handlers after it) spends a point; past the limit a wrong key gets
 * 429 with `Retry-After` instead of 401. A right key is never refused here, however many wrong ones its
 * address sent: behind a shared NAT or a load balancer not in `TRUST_PROXY`, anyone could otherwise lock the
 * publisher out by sending ten wrong keys. So the limit does not stop guessing (a right guess still passes);
 * keys of at least 32 characters (config) do, and the limit keeps a guesser's flood to 429s, counted in
 * `rateLimited`. Same limiter as the request limits (memory, or Redis shared by replicas); a broken store
 * lets requests through, as the request limits do.
 */
import type { MiddlewareHandler } from 'hono'
import { RateLimiterRes } from 'rate-limiter-flexible'
import { httpError } from '../../../http/errors.ts'
import type { RateLimitOptions } from './index.ts'

/** Wrong keys one address may send per window before they are answered 429: a typo and a redeploy. */
export const AUTH_FAILURE_POINTS = 10

export function authFailureLimit(options: RateLimitOptions): MiddlewareHandler {
  return async function authFailureLimit(c, next) {
    // Hono turns a thrown 401 into the response before `next` returns, so the status is what counts.
    await next()
    if (c.res.status !== 401) return
    // Outside the try: a key that cannot be made is a bug to see, not a limiter store to forgive.
    const key = options.key(c)
    try {
      await options.limiter.consume(key)
    } catch (result) {
      if (!(result instanceof RateLimiterRes)) {
        options.logger?.warn({ err: result }, 'rate limiter store failed; request let through')
        return
      }
      options.metrics?.rateLimited.inc({ route: options.route })
      throw httpError(
        429,
        'rate_limited',
        'Too many refused keys from this address: retry after Retry-After',
        { retryAfterSeconds: result.msBeforeNext / 1000 },
      )
    }
  }
}
