/**
 * @module `createBff(config, options)`: the BFF as a Hono app whose `fetch` runs in any web-standard
 * runtime. Everything runtime-specific (socket address, static files, the sandbox, Redis) comes in as an
 * option; `src/server/start-server.ts` supplies the Node ones.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import { BFF_ROUTES } from '../contract/bff.ts'
import { SERVER_OFFER_SEARCHES_ROUTE } from '../contract/server-search.ts'
import { createAccessTokens } from '../http/access-token.ts'
import { limitBody } from '../http/body-limit.ts'
import { createClientIdentity, type SocketAddressFn } from '../http/client-identity.ts'
import { errorResponse, onHttpError, onHttpNotFound } from '../http/errors.ts'
import type { AccessTokens } from '../http/request-services.ts'
import type { RetryPolicy } from '../http/retry.ts'
import { systemTimers, type Timers } from '../http/timers.ts'
import type { Tracing } from '../http/trace.ts'
import type { BffConfig } from './bff-config.ts'
import { createIssuersCache } from './issuers-cache.ts'
import { createLogger, type Logger } from './logger.ts'
import { type BffMetrics, createMetrics } from './metrics.ts'
import { compressJson } from './middleware/compress-json/index.ts'
import { createPerIpLimiter, rateLimit } from './middleware/rate-limit/index.ts'
import { requestMetrics } from './middleware/request-metrics/index.ts'
import { requireWidgetHeader } from './middleware/require-widget-header/index.ts'
import { securityHeaders } from './middleware/security-headers/index.ts'
import { widgetCors } from './middleware/widget-cors/index.ts'
import { createMemoryCoalescer, createRedisCoalescer } from './poll-coalescer.ts'
import { connectRedis, type Every, type RedisLink, watchRedis } from './redis-link.ts'
import { authFailureLimits, type LimitDeps, perIpRateLimits } from './request-limits.ts'
import { issuerRoutes } from './routes/issuers.ts'
import { offerSearchRoutes } from './routes/offer-searches.ts'
import { opsRoutes, type ReadinessCheck } from './routes/ops.ts'
import { secondLookRoutes } from './routes/second-look.ts'
import { serverOfferSearchRoutes } from './routes/server-offer-searches.ts'
import { createSearchLog, type SearchEventSink } from './search-log.ts'
import { createServedOffers } from './served-offers.ts'
import type { BffServices, PerIpLimitOverrides, SecondLookMount } from './services.ts'
import {
  createUpstreamClient,
  OFFER_SEARCH_OFF_MESSAGE,
  offerSearchOff,
  type UpstreamClient,
  type UpstreamOperation,
} from './upstream/index.ts'

/**
 * The ceiling of every `/api` write body. Each write route declares its own limit under it (`limitBody`,
 * src/http/body-limit.ts): searches `BODY_LIMIT_BYTES` (routes/offer-searches.ts), leads
 * `LEAD_BODY_LIMIT_BYTES` (src/contract/bff.ts); this bounds a
 * route that would declare none.
 */
const API_BODY_CEILING_BYTES = 64 * 1024

export interface BffOptions {
  /**
   * The second-look marketplace (`startSecondLook`): its search at `/api/second-look` with this BFF's tokens,
   * identity and limits, its clicks, impressions, conversions and reports under `/api`, its ledger in `/readyz`.
   */
  secondLook?: SecondLookMount
  /** Dependencies `/readyz` reports besides the upstream and the second look's ledger. */
  readinessChecks?: ReadinessCheck[]
  /** The TCP peer address; default reads `@hono/node-server`'s `c.env.incoming.socket`. */
  getSocketAddress?: SocketAddressFn
  /** Overrides `config.engine.baseUrl` (the server sets the sandbox's loopback URL here). */
  upstreamBaseUrl?: string
  /** `fetch` for runtimes without sockets (workers); undici otherwise. */
  upstreamTransport?: 'undici' | 'fetch'
  upstreamRetry?: Partial<Record<UpstreamOperation, Partial<RetryPolicy>>>
  /** Mounted at `/sandbox` (sandbox mode). */
  sandbox?: { app: Hono }
  /** Serves GET/HEAD requests no route took (widget bundle, playground, public/). */
  staticFiles?: MiddlewareHandler
  /** `false` turns the per-IP limit off (benchmarks); an object overrides `config.rateLimit`. */
  rateLimit?: false | PerIpLimitOverrides
  logger?: Logger
  metrics?: BffMetrics
  /** OpenTelemetry tracing (`startTracing`, loaded only when configured): its middleware opens `/api/*` spans. */
  tracing?: Pick<Tracing, 'middleware'>
  /** A Redis client to use instead of one made from `config.redisUrl`. */
  redis?: Redis
  /** Prefix of every Redis key; tests pass a unique one. */
  keyPrefix?: string
  upstream?: UpstreamClient
  accessTokens?: AccessTokens
  /** The BFF's clock: token expiry, caches, poll coalescing, upstream retry waits; default `systemTimers`. */
  timers?: Timers
  random?: () => number
  /**
   * Where the placements report's search events go (docs/placements.md): the ledger's `recordSearchEvents`
   * (`startServer` passes the second look's). Absent (no ledger), placements still reach the upstream as a
   * `clientTags.subId` tag and the measure route answers 204, but nothing is recorded (metric `unrecorded`).
   */
  searchEvents?: SearchEventSink
  /** Periodic work (Redis heartbeat, log reminders, coalescer sweep); tests tick it by hand. */
  every?: Every
}

export type BffApp = Hono & {
  services: BffServices
  /** Closes the upstream pool and a Redis client this app opened. */
  close(): Promise<void>
}

export function createBff(config: BffConfig, options: BffOptions = {}): BffApp {
  const timers = options.timers ?? systemTimers
  const logger = options.logger ?? createLogger({ level: config.logLevel })
  const metrics = options.metrics ?? createMetrics()
  const keyPrefix = options.keyPrefix ?? 'offer-widget:'
  // The upstream first: without a base URL it throws before a Redis connection is opened.
  const upstreamOff =
    !config.offerSearch && options.upstream === undefined && options.upstreamBaseUrl === undefined
  const upstream =
    options.upstream ??
    (upstreamOff ? offerSearchOff() : upstreamFor(config, options, { logger, metrics, timers }))
  const redisLink = redisLinkFor(config, options, { logger, timers, every: options.every })
  const clientIdentity = createClientIdentity({
    trustProxy: config.trustProxy,
    getSocketAddress: options.getSocketAddress,
  })
  const accessTokens =
    options.accessTokens ??
    createAccessTokens(config.sessionSecret, { ttlMs: config.accessTokenTtlSeconds * 1000, timers })

  const services = bffServices(config, options, {
    logger,
    metrics,
    timers,
    keyPrefix,
    upstream,
    redisLink,
    clientIdentity,
    accessTokens,
  })

  const coalescer = coalescerFor(config, {
    upstream,
    redisLink,
    keyPrefix,
    metrics,
    timers,
    every: options.every,
  })
  const issuers = createIssuersCache({ load: () => upstream.listIssuers(), logger, timers })

  const app = new Hono()
  app.onError(onHttpError(logger))
  app.notFound(onHttpNotFound)
  // First: every later middleware, handler and log line of an API request runs inside its server span.
  if (options.tracing) {
    app.use('/api/*', options.tracing.middleware({ trustedPeer: clientIdentity.fromTrustedProxy }))
  }
  app.use('*', requestMetrics({ metrics }))
  app.use('*', securityHeaders())
  // JSON answers of 1 KiB or more gzip-encoded for clients that accept it (rate tables, issuers, errors).
  app.use('*', compressJson())
  // Before the widget's CORS and header rules: the server route answers servers only, with no CORS at all.
  app.route(SERVER_OFFER_SEARCHES_ROUTE, serverOfferSearchRoutes(services, { keyPrefix }))
  app.use('/api/*', widgetCors({ allowedOrigins: config.allowedOrigins, logger, timers }))
  app.use('/api/*', requireWidgetHeader())
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/api/*', limitBody(API_BODY_CEILING_BYTES))

  const api = new Hono()
  mountSearchRoutes(
    api,
    upstreamOff
      ? undefined
      : { services, issuers, coalescer, keyPrefix, perAddressLimit: options.rateLimit !== false },
  )
  if (options.secondLook) api.route('/', secondLookRoutes(options.secondLook, services))
  app.route('/api', api)
  app.route('/', opsRoutes(services, { timers, checks: readinessChecks(options) }))
  if (options.sandbox) app.route('/sandbox', options.sandbox.app)
  if (options.staticFiles) app.on(['GET', 'HEAD'], '*', options.staticFiles)

  return Object.assign(app, {
    services,
    async close() {
      coalescer.close()
      await upstream.close()
      await redisLink?.close()
    },
  })
}

/**
 * Issuers and offer searches; on a loan-only server (`off`: no offer-search account) both answer 404 with
 * the fix, before any body is read.
 */
function mountSearchRoutes(
  api: Hono,
  on:
    | ({
        services: BffServices
        issuers: ReturnType<typeof createIssuersCache>
        coalescer: Parameters<typeof offerSearchRoutes>[1]
      } & Parameters<typeof offerSearchRoutes>[2])
    | undefined,
): void {
  const issuersPath = BFF_ROUTES.issuers.replace(/^\/api/, '')
  const searchesPath = BFF_ROUTES.offerSearches.replace(/^\/api/, '')
  if (on === undefined) {
    const off = new Hono().all('*', () => errorResponse(404, 'not_found', OFFER_SEARCH_OFF_MESSAGE))
    api.route(issuersPath, off)
    api.route(searchesPath, off)
    return
  }
  api.route(issuersPath, issuerRoutes(on.issuers))
  api.route(searchesPath, offerSearchRoutes(on.services, on.coalescer, on))
}

/** What `/readyz` reports besides the upstream: the second look's ledger first, then the ones given. */
function readinessChecks(options: BffOptions): ReadinessCheck[] {
  const { secondLook } = options
  const ledger: ReadinessCheck[] = secondLook
    ? [{ name: 'ledger', check: () => secondLook.checkLedger() }]
    : []
  return [...ledger, ...(options.readinessChecks ?? [])]
}

/** The upstream client `config` describes (`options` may override its transport and retries). */
function upstreamFor(
  config: BffConfig,
  options: BffOptions,
  { logger, metrics, timers }: { logger: Logger; metrics: BffMetrics; timers: Timers },
): UpstreamClient {
  const baseUrl = options.upstreamBaseUrl ?? config.engine.baseUrl
  if (baseUrl === undefined) {
    throw new Error(
      'createBff: no upstream base URL. Set ENGINE_TOKEN with ENGINE_BASE_URL_TEST or ENGINE_BASE_URL_PRODUCTION ' +
        '(as ENGINE_ENV says) in the environment the app runs in, or pass { upstreamBaseUrl }; startServer() ' +
        'mounts the sandbox in sandbox mode. In a framework route, create the BFF on the first request ' +
        '(createRouteHandlers), not at import: a build has no runtime environment.',
    )
  }
  return createUpstreamClient({
    baseUrl,
    token: config.engine.token,
    apiVersion: config.engine.apiVersion,
    env: config.engine.env,
    connectTimeoutMs: config.upstreamTimeouts.connectMs,
    requestTimeoutMs: config.upstreamTimeouts.requestMs,
    transport: options.upstreamTransport,
    retry: options.upstreamRetry,
    logger,
    metrics,
    timers,
    random: options.random,
  })
}

/** What every route module is handed (`BffServices`): identity, tokens, upstream, logs, metrics and limits. */
function bffServices(
  config: BffConfig,
  options: BffOptions,
  deps: Pick<
    BffServices,
    'logger' | 'metrics' | 'upstream' | 'redisLink' | 'clientIdentity' | 'accessTokens'
  > & {
    timers: Timers
    keyPrefix: string
  },
): BffServices {
  const { logger, metrics, timers, keyPrefix, redisLink, clientIdentity } = deps
  const limitDeps: LimitDeps = {
    redisLink,
    keyPrefix,
    address: (c) => clientIdentity(c).ipAddress,
    peer: clientIdentity.address,
    metrics,
    logger,
  }
  return {
    config,
    logger,
    metrics,
    clientIdentity,
    accessTokens: deps.accessTokens,
    upstream: deps.upstream,
    searchLog: createSearchLog({
      sink: options.searchEvents,
      logger,
      metrics,
      timers,
      served: createServedOffers({
        timers,
        ttlMs: config.accessTokenTtlSeconds * 1000,
        link: redisLink,
        keyPrefix,
      }),
    }),
    redis: redisLink?.client,
    redisLink,
    perIpRateLimit: perIpRateLimits(config, options.rateLimit, limitDeps),
    authFailureLimit: authFailureLimits(config, limitDeps),
    ceiling: (route, limit) =>
      rateLimit({
        limiter: createPerIpLimiter({
          points: limit.points,
          durationSeconds: limit.durationSeconds,
          link: redisLink,
          keyPrefix: `${keyPrefix}rl:ceiling:${route}`,
        }),
        key: () => 'all',
        route: `${route} (ceiling)`,
        metrics,
        logger,
        refusal: limit.refusal,
      }),
  }
}

/** Polls of one rate table share one upstream call: across replicas through Redis when configured. */
function coalescerFor(
  config: BffConfig,
  deps: {
    upstream: UpstreamClient
    redisLink: RedisLink | undefined
    keyPrefix: string
    metrics: BffMetrics
    timers: Timers
    every: Every | undefined
  },
) {
  const fetch = (uuid: string, previousJson?: string) => deps.upstream.pollOfferSearchJson(uuid, previousJson)
  const options = { fetch, metrics: deps.metrics, timers: deps.timers, every: deps.every }
  return deps.redisLink
    ? createRedisCoalescer({
        ...options,
        link: deps.redisLink,
        keyPrefix: deps.keyPrefix,
        leaseMs: config.upstreamTimeouts.connectMs + config.upstreamTimeouts.requestMs,
      })
    : createMemoryCoalescer(options)
}

/** The Redis link: the client given, or one made from `REDIS_URL`; none without either. */
function redisLinkFor(
  config: BffConfig,
  options: BffOptions,
  linkOptions: { logger: Logger; timers: Timers; every: Every | undefined },
): RedisLink | undefined {
  if (options.redis) return watchRedis(options.redis, linkOptions)
  return config.redisUrl ? connectRedis(config.redisUrl, linkOptions) : undefined
}
