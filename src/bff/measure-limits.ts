/**
 * @module The limits of the widget's measure (`POST /api/offer-searches/:uuid/measure`, docs/placements.md),
 * built on the BFF's rate limiter (rate-limiter-flexible: in memory, or in Redis so every replica counts
 * together): per search (its access token is bound to it) `MEASURES_PER_SEARCH` a window, and per client
 * address that many for each search the address may create in the window. Past either: 429 with
 * `Retry-After`, counted in `bff_rate_limited_total`. A widget sends one measure per batch of offers shown and
 * one per click, and ignores the answer, so a limited measure costs a visitor nothing.
 */
import type { MiddlewareHandler } from 'hono'
import { checkedSearchUuid } from '../http/search-resource.ts'
import { createPerIpLimiter, limiterKeyForIp, rateLimit } from './middleware/rate-limit/index.ts'
import type { BffServices } from './services.ts'

/** Measures one search may send in a window (`RATE_LIMIT_WINDOW_SECONDS`): far above a widget's few. */
export const MEASURES_PER_SEARCH = 30

/** The metric label (`bff_rate_limited_total{route}`) of refused measures. */
export const MEASURE_ROUTE = '/api/offer-searches/:uuid/measure'

export interface MeasureLimits {
  /** Per client address (its /64 for IPv6): before the token is checked. */
  perAddress: MiddlewareHandler
  /** Per search: after its token is checked, so no one else can spend a search's allowance. */
  perSearch: MiddlewareHandler
}

export function measureLimits(
  services: Pick<BffServices, 'config' | 'metrics' | 'logger' | 'redisLink' | 'clientIdentity'>,
  options: { keyPrefix: string; perAddress: boolean },
): MeasureLimits {
  const { config, metrics, logger, redisLink, clientIdentity } = services
  const durationSeconds = config.rateLimit.windowSeconds
  const limit = (name: string, points: number, key: Parameters<typeof rateLimit>[0]['key']) =>
    rateLimit({
      limiter: createPerIpLimiter({
        points,
        durationSeconds,
        link: redisLink,
        keyPrefix: `${options.keyPrefix}rl:measure-${name}`,
      }),
      key,
      route: MEASURE_ROUTE,
      metrics,
      logger,
      refusal: `Too many measures from this ${name}: retry after Retry-After`,
    })
  return {
    perAddress: options.perAddress
      ? limit('address', config.rateLimit.points * MEASURES_PER_SEARCH, (c) =>
          limiterKeyForIp(clientIdentity.address(c)),
        )
      : async function noAddressLimit(_c, next) {
          await next()
        },
    perSearch: limit('search', MEASURES_PER_SEARCH, (c) => checkedSearchUuid(c.req.param('uuid') ?? '')),
  }
}
