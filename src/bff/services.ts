/**
 * @module The pieces the BFF's route modules share (`BffServices`): identity, tokens, limits, logs and
 * metrics; and what the BFF is given to serve the second look (`SecondLookMount`).
 */
import type { MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import type { createClientIdentity } from '../http/client-identity.ts'
import type { AccessTokens } from '../http/request-services.ts'
import type { SearchApi } from '../http/search-resource.ts'
import type { BffConfig } from './bff-config.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'
import type { RedisLink } from './redis-link.ts'
import type { SearchLog } from './search-log.ts'
import type { UpstreamClient } from './upstream/index.ts'

export interface PerIpLimitOverrides {
  points?: number
  durationSeconds?: number
}

export interface BffServices {
  config: BffConfig
  logger: Logger
  /** `metrics.registry` is the prom-client registry `/metrics` serves; register extra metrics on it. */
  metrics: BffMetrics
  clientIdentity: ReturnType<typeof createClientIdentity>
  accessTokens: AccessTokens
  upstream: UpstreamClient
  /** The placements report's records of insurance searches (docs/placements.md); never waits, never fails a search. */
  searchLog: SearchLog
  /** The shared Redis client when `REDIS_URL` is set. */
  redis: Redis | undefined
  /** Whether that client can be used right now; skip Redis while `available()` is false. */
  redisLink: RedisLink | undefined
  /** Per-IP limit middleware (Redis-backed when configured); `route` names its metric and key space. */
  perIpRateLimit(route: string, overrides?: PerIpLimitOverrides): MiddlewareHandler
  /**
   * Put before a bearer check: refused credentials (401s) are counted per client address, and past
   * `AUTH_FAILURE_POINTS` a wrong token is answered 429; a right one always passes. `route` names the
   * metric and the key space.
   */
  authFailureLimit(route: string): MiddlewareHandler
  /**
   * A limit on every client together (Redis-backed with `REDIS_URL`, so across replicas): `points` requests
   * per `durationSeconds`, then 429 with `Retry-After` and `refusal` as the message. Put it after the per-IP
   * limit, so one flooding address is refused before it spends everyone's allowance.
   */
  ceiling(
    route: string,
    limit: { points: number; durationSeconds: number; refusal: string },
  ): MiddlewareHandler
}

/**
 * The second look as the BFF serves it (`startSecondLook` returns one): the marketplace's search at
 * `/api/second-look` with the BFF's tokens, identity and limits, its other routes, its ledger's readiness.
 */
export interface SecondLookMount {
  /** Its search engine and its other routes (`createMarketplace`). */
  readonly marketplace: SearchApi
  /** Leads a minute from every address together (`LEAD_CEILING_PER_MINUTE`), after the per-IP limit. */
  readonly leadCeilingPerMinute: number
  /** `/readyz` reports it as `ledger`: resolves when the ledger answers, rejects naming why otherwise. */
  checkLedger(): Promise<void>
}
