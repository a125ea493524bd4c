/**
 * @module Builds the second-look marketplace from its dependencies and hands back its routes: lead intake
 * and polling, clicks and partner reports on the BFF's `/api` sub-app, and the `/reports` page. Fan-out runs
 * in the background of the process that accepted the lead; `close()` aborts and awaits it.
 */
import { setMaxListeners } from 'node:events'
import type { Hono, MiddlewareHandler } from 'hono'
import pino, { type Logger } from 'pino'
import { Agent, type Dispatcher } from 'undici'
import type { Ledger } from '../ledger/index.ts'
import type { WinnerPolicy } from './auction/auction.ts'
import { type Scorer, scoreOffer } from './auction/score.ts'
import { type ClickSigner, createClickSigner } from './clicks/click-token.ts'
import { DEFAULT_MAX_REPLY_BYTES } from './fan-out/call-partner.ts'
import { runLead } from './fan-out/run-lead.ts'
import { createBodyHasher } from './intake/idempotency.ts'
import type { AccessTokens, ClientIdentity, MarketplaceContext } from './marketplace-context.ts'
import { MAX_PARTNER_TIMEOUT_MS, type PartnerRegistryEntry } from './registry/partner-registry.ts'
import { registerClickRoute } from './routes/click-route.ts'
import { registerConversionRoute } from './routes/conversion-route.ts'
import { registerImpressionRoute } from './routes/impression-route.ts'
import { registerReportPage } from './routes/report-page-routes.ts'
import { registerReportRoutes } from './routes/report-routes.ts'
import { registerSecondLookRoutes } from './routes/second-look-routes.ts'

export interface MarketplaceConfig {
  winnerPolicy: WinnerPolicy
  /** Bearer token of the partner reports; reports are off without one. */
  reportsToken?: string | undefined
  /** Outside sandbox mode every partner endpoint must be https. */
  sandboxMode: boolean
  /** Origin of click links (`PUBLIC_BASE_URL`); the request's origin when unset. */
  publicBaseUrl?: string | undefined
  /** Whole-lead window, both tiers; 12 000 ms (seed 001) and never more. Tests use a few hundred. */
  deadlineMs?: number
  /** Cap on a partner reply body; 256 KiB. */
  maxReplyBytes?: number
  /** Lifetime of a click link; a day. */
  clickTokenTtlMs?: number
}

export interface MarketplaceDeps {
  config: MarketplaceConfig
  ledger: Ledger
  registry: readonly PartnerRegistryEntry[]
  accessTokens: AccessTokens
  clientIdentity: ClientIdentity
  /** Keys click tokens and body fingerprints; at least 16 characters (`SESSION_SECRET`). */
  secret: string
  clickSigner?: ClickSigner
  logger?: Logger
  now?: () => number
  /** An undici dispatcher for partner calls; a keep-alive Agent owned by the marketplace when absent. */
  dispatcher?: Dispatcher
  scorer?: Scorer
}

export interface Marketplace {
  /**
   * `POST /second-look`, `GET /second-look/:uuid`, `GET /clicks/:token`, `GET /reports/partners[/:id]`.
   * `beforeIntake` runs before `POST /second-look` only (the BFF's per-IP limit).
   */
  // biome-ignore lint/suspicious/noExplicitAny: mounts on a sub-app of any Env
  routes(api: Hono<any, any, any>, options?: { beforeIntake?: MiddlewareHandler[] }): void
  /** `GET /reports` with its script and stylesheet. */
  // biome-ignore lint/suspicious/noExplicitAny: mounts on an app of any Env
  pageRoutes(app: Hono<any, any, any>): void
  /** Resolves once the lead's auction has settled in this process (at once when nothing runs for it). */
  settled(searchUuid: string): Promise<void>
  /** Aborts partner calls in flight, waits for their leads to be written, closes the owned dispatcher. */
  close(): Promise<void>
  readonly clickSigner: ClickSigner
}

export function createMarketplace(deps: MarketplaceDeps): Marketplace {
  const { config } = deps
  const deadlineMs = config.deadlineMs ?? MAX_PARTNER_TIMEOUT_MS
  if (!(deadlineMs > 0 && deadlineMs <= MAX_PARTNER_TIMEOUT_MS)) {
    throw new Error(`marketplace deadlineMs must be 1-${MAX_PARTNER_TIMEOUT_MS} (seed 001's 12 s window)`)
  }
  const registry = new Map<string, PartnerRegistryEntry>()
  for (const entry of deps.registry) {
    if (registry.has(entry.id)) throw new Error(`partner registry: id "${entry.id}" is used twice`)
    if (!config.sandboxMode && !entry.endpoint.startsWith('https://')) {
      throw new Error(`partner registry: ${entry.id}.endpoint must be https outside sandbox mode`)
    }
    registry.set(entry.id, entry)
  }
  const now = deps.now ?? Date.now
  const logger = deps.logger ?? pino({ level: 'silent' })
  const ownedDispatcher = deps.dispatcher
    ? undefined
    : new Agent({ keepAliveTimeout: 10_000, connections: 128 })
  const dispatcher = deps.dispatcher ?? (ownedDispatcher as Dispatcher)
  const clickSigner =
    deps.clickSigner ?? createClickSigner(deps.secret, { ttlMs: config.clickTokenTtlMs, now })
  const shutdown = new AbortController()
  // Every partner call in flight listens for shutdown: hundreds at once are expected, not a leak.
  setMaxListeners(0, shutdown.signal)
  const running = new Map<string, Promise<void>>()
  const scorer = deps.scorer ?? scoreOffer

  const ctx: MarketplaceContext = {
    ledger: deps.ledger,
    registry,
    policy: config.winnerPolicy,
    scorer,
    accessTokens: deps.accessTokens,
    clientIdentity: deps.clientIdentity,
    clickSigner,
    hashBody: createBodyHasher(deps.secret),
    reportsToken: config.reportsToken,
    publicBaseUrl: config.publicBaseUrl?.replace(/\/+$/, ''),
    deadlineMs,
    logger,
    now,
    startRun(searchUuid, run) {
      const done = runLead(
        {
          ledger: deps.ledger,
          registry,
          policy: config.winnerPolicy,
          scorer,
          dispatcher,
          now,
          logger,
          maxReplyBytes: config.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
          shutdown: shutdown.signal,
        },
        run,
      )
        .catch((error: unknown) => {
          logger.error({ leadId: run.leadId, err: error }, 'second-look fan-out failed')
        })
        .finally(() => running.delete(searchUuid))
      running.set(searchUuid, done)
    },
  }

  return {
    routes(api, options = {}) {
      registerSecondLookRoutes(api, ctx, options.beforeIntake ?? [])
      registerClickRoute(api, ctx)
      registerImpressionRoute(api, ctx)
      registerConversionRoute(api, ctx)
      registerReportRoutes(api, ctx)
    },
    pageRoutes(app) {
      registerReportPage(app)
    },
    settled: (searchUuid) => running.get(searchUuid.toLowerCase()) ?? Promise.resolve(),
    async close() {
      shutdown.abort()
      await Promise.all(running.values())
      await ownedDispatcher?.close()
    },
    clickSigner,
  }
}
