/**
 * @module The pieces a route module needs, handed to every extra route given to `createBff` so the
 * marketplace (and any later feature) uses the same identity, tokens, limits, logs and metrics.
 */
import type { MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import type { AccessTokens } from '../http/request-services.ts'
import type { BffConfig } from './bff-config.ts'
import type { createClientIdentity } from './client-identity.ts'
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

/** Extra routes: called with the `/api` sub-app before it is mounted, e.g. `api.post('/second-look', ...)`. */
export type BffRoutes = (api: import('hono').Hono, services: BffServices) => void
