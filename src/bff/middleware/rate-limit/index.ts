/**
 * @module Per-client rate limit for lead-creating routes (`POST /api/offer-searches`, later
 * `POST /api/second-look`): rate-limiter-flexible in memory, or in Redis so every replica counts together.
 * Refusals are 429 with `Retry-After`; a broken store lets requests through (the memory insurance limiter
 * still counts) rather than taking the form down.
 */
import type { Context, MiddlewareHandler } from 'hono'
import ipaddr from 'ipaddr.js'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import { httpError } from '../../../http/errors.ts'
import type { Logger } from '../../logger.ts'
import type { BffMetrics } from '../../metrics.ts'
import type { RedisLink } from '../../redis-link.ts'

export interface PerIpLimiterOptions {
  points: number
  durationSeconds: number
  /** Shared counting across replicas while it is available; this process's memory otherwise. */
  link?: RedisLink
  keyPrefix?: string
}

/** The one call the middleware makes; resolves under the limit, rejects with `RateLimiterRes` over it. */
export interface PerIpLimiter {
  consume(key: string): Promise<RateLimiterRes>
}

export function createPerIpLimiter(options: PerIpLimiterOptions): PerIpLimiter {
  const base = {
    points: options.points,
    duration: options.durationSeconds,
    keyPrefix: options.keyPrefix ?? 'rl',
  }
  const memory = new RateLimiterMemory(base)
  const { link } = options
  if (!link) return memory
  const shared = new RateLimiterRedis({
    ...base,
    storeClient: link.client,
    // A command that fails anyway (the link has not noticed yet) is counted here, in this process.
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  })
  return {
    // While Redis is away every request counts in memory at once: no request waits on a reconnect.
    consume: (key) => (link.available() ? shared.consume(key) : memory.consume(key)),
  }
}

/** One IPv6 visitor owns a whole /64, so that is the unit counted; IPv4 counts per address. */
export function limiterKeyForIp(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address
  const parsed = ipaddr.IPv6.parse(address)
  return `${parsed.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}

export interface RateLimitOptions {
  limiter: PerIpLimiter
  /** The client's key, usually `limiterKeyForIp(clientIdentity(c).ipAddress)`. */
  key: (c: Context) => string
  /** Metric label, e.g. `/api/offer-searches`. */
  route: string
  metrics?: BffMetrics
  logger?: Logger
  /** The 429's message; default: too many searches from this address. */
  refusal?: string
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  return async function rateLimit(c, next) {
    // Outside the try: a request whose client cannot be identified is refused, never let through.
    const key = options.key(c)
    try {
      await options.limiter.consume(key)
    } catch (result) {
      if (result instanceof RateLimiterRes) {
        options.metrics?.rateLimited.inc({ route: options.route })
        throw httpError(
          429,
          'rate_limited',
          options.refusal ?? 'Too many searches from this address: retry after Retry-After',
          {
            retryAfterSeconds: result.msBeforeNext / 1000,
          },
        )
      }
      options.logger?.warn({ err: result }, 'rate limiter store failed; request let through')
    }
    await next()
  }
}
