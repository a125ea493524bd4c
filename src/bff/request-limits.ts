/**
 * @module The BFF's limits on a client's requests, per address and route (Redis-backed with `REDIS_URL`, in
 * memory without): the per-IP limit each route asks for (`services.perIpRateLimit`), and the refused bearer
 * tokens a client may send (`services.authFailureLimit`).
 */
import type { Context } from 'hono'
import type { BffConfig } from './bff-config.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'
import { AUTH_FAILURE_POINTS, authFailureLimit } from './middleware/rate-limit/failure-limit.ts'
import { createPerIpLimiter, limiterKeyForIp, rateLimit } from './middleware/rate-limit/index.ts'
import type { RedisLink } from './redis-link.ts'
import type { BffServices, PerIpLimitOverrides } from './services.ts'

export interface LimitDeps {
  redisLink: RedisLink | undefined
  keyPrefix: string
  /** The visitor's address, with its user agent required (a search's identity). */
  address: (c: Context) => string
  /** The client's address alone (a server or a script calling a bearer route sends no browser's agent). */
  peer: (c: Context) => string
  metrics: BffMetrics
  logger: Logger
}

/** `services.perIpRateLimit`: a per-IP limit per route (Redis-backed with `REDIS_URL`), or none with `rateLimit: false`. */
export function perIpRateLimits(
  config: BffConfig,
  limits: false | PerIpLimitOverrides | undefined,
  deps: LimitDeps,
): BffServices['perIpRateLimit'] {
  return (route, overrides = {}) => {
    if (limits === false)
      return async function noRateLimit(_c, next) {
        await next()
      }
    const limiter = createPerIpLimiter({
      points: overrides.points ?? limits?.points ?? config.rateLimit.points,
      durationSeconds: overrides.durationSeconds ?? limits?.durationSeconds ?? config.rateLimit.windowSeconds,
      link: deps.redisLink,
      keyPrefix: `${deps.keyPrefix}rl:${route}`,
    })
    return rateLimit({
      limiter,
      key: (c) => limiterKeyForIp(deps.address(c)),
      route,
      metrics: deps.metrics,
      logger: deps.logger,
    })
  }
}

/**
 * `services.authFailureLimit`: refused bearer tokens per client address and route, in the rate limit's
 * window (Redis-backed with `REDIS_URL`). Kept with `rateLimit: false` too: it only ever answers a wrong
 * token, and a bearer route without it could be guessed at full speed.
 */
export function authFailureLimits(config: BffConfig, deps: LimitDeps): BffServices['authFailureLimit'] {
  return (route) =>
    authFailureLimit({
      limiter: createPerIpLimiter({
        points: AUTH_FAILURE_POINTS,
        durationSeconds: config.rateLimit.windowSeconds,
        link: deps.redisLink,
        keyPrefix: `${deps.keyPrefix}rl:auth-failures:${route}`,
      }),
      key: (c) => limiterKeyForIp(deps.peer(c)),
      route,
      metrics: deps.metrics,
      logger: deps.logger,
    })
}
