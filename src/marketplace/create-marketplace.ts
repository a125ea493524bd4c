/**
 * @module Builds the second-look marketplace from its dependencies and hands back what the BFF mounts: its
 * search engine (lead intake and polling, served at `/api/second-look` as a search resource), its other
 * routes under `/api` (consent texts, clicks, impressions, conversions, reports), and the `/reports` page. Fan-out runs
 * in the background of the process that accepted the lead, under a lease it renews; when the lease runs out
 * (the process died, or lost the ledger) any replica takes the lead over and finishes it. `drain()` lets
 * leads in flight finish (bounded) on shutdown, `close()` aborts what is left and awaits its writes.
 */
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import pino, { type Logger } from 'pino'
import { Registry } from 'prom-client'
import { Agent, type Dispatcher } from 'undici'
import { BFF_ROUTES } from '../contract/bff.ts'
import type { SearchApi } from '../http/search-resource.ts'
import { systemTimers, type Timers } from '../http/timers.ts'
import type { Ledger } from '../ledger/index.ts'
import { createSearchCache } from '../ledger/search-cache.ts'
import type { WinnerPolicy } from './auction/auction.ts'
import { type Scorer, scoreOffer } from './auction/score.ts'
import { type ClickSigner, createClickSigner, DEFAULT_CLICK_TOKEN_TTL_MS } from './clicks/click-token.ts'
import { type OperatorConsentTexts, sandboxConsentTexts } from './consent/consent-texts.ts'
import { startRetentionSweep } from './consent/retention-sweep.ts'
import { DEFAULT_MAX_REPLY_BYTES } from './fan-out/call-partner.ts'
import { createPartnerLeadIdHasher } from './fan-out/partner-lead-id-hash.ts'
import { publicOnlyLookup, sandboxOnlyLookup } from './fan-out/public-lookup.ts'
import type { RunLeadContext } from './fan-out/run-lead.ts'
import { createApplicantHasher } from './intake/applicant-key.ts'
import { createBodyHasher } from './intake/idempotency.ts'
import { DEFAULT_MAX_BIRTH_DATES_PER_SSN } from './intake/lead-intake.ts'
import { checkedConsentTexts, checkedRegistry, checkedWindows } from './marketplace-checks.ts'
import type { MarketplaceContext } from './marketplace-context.ts'
import { marketplaceRoutes } from './marketplace-routes.ts'
import type { PartnerRegistryEntry } from './registry/partner-registry.ts'
import { reportPageRoutes } from './routes/report-page-routes.ts'
import { secondLookEngine } from './routes/second-look-engine.ts'
import {
  drainLeads,
  type LeadsState,
  newLeadsState,
  startRun,
  takeOver,
  withdrawLead,
} from './running-leads.ts'
import { createSecondLookMetrics } from './second-look-metrics.ts'
import { type LeaseKeeper, startLeaseKeeper } from './takeover/lease-keeper.ts'
import { createLeadSealer, type LeadSealer } from './takeover/sealed-lead.ts'

export interface MarketplaceConfig {
  winnerPolicy: WinnerPolicy
  /** Bearer token of the partner reports; reports are off without one. */
  reportsToken?: string | undefined
  /** Outside sandbox mode every partner endpoint must be https. */
  sandboxMode: boolean
  /** Origin of click links (`PUBLIC_BASE_URL`); the request's origin when unset. */
  publicBaseUrl?: string | undefined
  /**
   * Cap on each partner's window, counted from when it is sent the lead: 12 000 ms (docs/partner-interface.md) and never
   * more; a partner's registered `timeoutMs` may be shorter. Tests use a few hundred.
   */
  deadlineMs?: number
  /** First look closes at this when first-look partners are still out (`FIRST_LOOK_DEADLINE_MS`); `deadlineMs` by default. */
  firstLookDeadlineMs?: number
  /** How long a reply or settle the ledger refused is retried; 30 s. */
  writeRetryMs?: number
  /** On shutdown, leads in flight get this long to finish before their partner calls are cut (`MARKETPLACE_DRAIN_TIMEOUT_MS`); 15 s. */
  drainTimeoutMs?: number
  /** Cap on a partner reply body; 256 KiB. */
  maxReplyBytes?: number
  /** Lifetime of a click link; a day. */
  clickTokenTtlMs?: number
  /**
   * How long a replica holds a lead it runs without renewing (`LEAD_LEASE_MS`); renewed every third of it.
   * Once it has run out, another replica takes the lead over. 3 s.
   */
  leaseMs?: number
  /**
   * The operator's FCRA and TCPA texts (`loadConsentTexts(CONSENT_TEXTS_FILE)`), the only ones a lead may
   * carry. In sandbox mode the partner kit's sample texts by default; outside it required when any partner
   * gets leads.
   */
  consentTexts?: OperatorConsentTexts | undefined
  /**
   * How long one application holds its applicant (`DUPLICATE_WINDOW_DAYS`): another application with the same
   * SSN and date of birth within it is sent to no partner. 30 days; 0 turns the check off.
   */
  duplicateWindowMs?: number
  /** How long a consent record is kept (`CONSENT_RETENTION_DAYS`): 1825 days (5 years). */
  consentRetentionMs?: number
  /**
   * Dates of birth one SSN may apply with within the duplicate window (`MAX_BIRTH_DATES_PER_SSN`): the
   * applicant and one correction by default (2). Past it an application is held for review, sent to no partner.
   */
  maxBirthDatesPerSsn?: number
}

export interface MarketplaceDeps {
  config: MarketplaceConfig
  ledger: Ledger
  registry: readonly PartnerRegistryEntry[]
  /** Keys click tokens, body fingerprints and sealed leads (`SESSION_SECRET`); `MIN_SECRET_LENGTH` characters at least. */
  secret: string
  /** Key of the partner `lead_id` hash (`LEAD_ID_HASH_SECRET`); derived from `secret` when absent. */
  leadIdKey?: string | undefined
  clickSigner?: ClickSigner
  logger?: Logger
  /** The clock of click tokens, rate tables and leases, and the timers of windows, retries and the drain; fake ones in tests. */
  timers?: Timers
  /** An undici dispatcher for partner calls; a keep-alive Agent owned by the marketplace when absent. */
  dispatcher?: Dispatcher
  scorer?: Scorer
  /** The registry `/metrics` serves (partner requests, leads, winners, deliveries); a private one when absent. */
  metricsRegistry?: Registry
}

/**
 * What the BFF mounts at `/api` (`createBff(config, { secondLook })`, or `searchApiRoutes` on any Hono app):
 * the search at `searchPath` (`POST /second-look`, `GET /second-look/:uuid`) with the host's access tokens,
 * visitor identity and limits, and `routes()`: `GET /second-look/consent`, `GET /clicks/:token`,
 * `GET /impressions/:token`, and behind bearer tokens `POST /conversions`, `GET /reports/partners[/:id[/suppression]]`
 * and the operator's `GET /reports/...`.
 */
export interface Marketplace extends SearchApi {
  /** `GET /reports` with its script and stylesheet, as a sub-app to mount at the root: `app.route('/', ...)`. */
  pageRoutes(): Hono
  /** Resolves once the lead's auction has settled in this process (at once when nothing runs for it). */
  settled(searchUuid: string): Promise<void>
  /** Leads running in this process. */
  readonly inFlight: number
  /**
   * Shutdown, first step: intake answers 503 from now on, and leads in flight keep their partner calls until
   * their windows close, for at most `timeoutMs` (`drainTimeoutMs`); past that their calls are cut. Resolves
   * once every lead has been written.
   */
  drain(timeoutMs?: number): Promise<void>
  /** Aborts partner calls in flight, waits for their leads to be written, closes the owned dispatcher. */
  close(): Promise<void>
  readonly clickSigner: ClickSigner
}

const DEFAULT_LEASE_MS = 3_000
const DAY_MS = 24 * 60 * 60 * 1000
const DEFAULT_DUPLICATE_WINDOW_MS = 30 * DAY_MS
/** Five years: FCRA's statute of limitations (TCPA's is four), docs/decisions/0105-consent-records.md. */
const DEFAULT_CONSENT_RETENTION_MS = 1825 * DAY_MS
export function createMarketplace(deps: MarketplaceDeps): Marketplace {
  const { config } = deps
  const windows = checkedWindows(config)
  const drainTimeoutMs = config.drainTimeoutMs ?? 15_000
  const registry = checkedRegistry(deps.registry, config.sandboxMode)
  const consentTexts = checkedConsentTexts(
    config.consentTexts ?? (config.sandboxMode ? sandboxConsentTexts() : undefined),
    registry,
  )
  const timers = deps.timers ?? systemTimers
  const ownedDispatcher = deps.dispatcher
    ? undefined
    : new Agent({
        keepAliveTimeout: 10_000,
        connections: 128,
        // Outside sandbox mode a partner's name must resolve to public addresses only (`lvh.me` does not); in
        // it, to loopback or private ones only, whether or not its entry says `sandbox`.
        connect: { lookup: config.sandboxMode ? sandboxOnlyLookup() : publicOnlyLookup() },
      })
  const dispatcher = deps.dispatcher ?? (ownedDispatcher as Dispatcher)
  const clickSigner =
    deps.clickSigner ?? createClickSigner(deps.secret, { ttlMs: config.clickTokenTtlMs, timers })
  const state = newLeadsState()
  const sealer = createLeadSealer(deps.secret)
  const runCtx = runLeadContext(deps, state, { registry, timers, dispatcher, ...windows })
  // This process, as a lead's owner: new at every start, so a restarted replica takes its own leads over.
  const lease = { owner: randomUUID(), ms: config.leaseMs ?? DEFAULT_LEASE_MS }

  // Takeover: leads whose lease ran out (their replica died, or lost the ledger past every retry) are
  // claimed by one live replica and finished on what the ledger recorded.
  const keeper = startLeaseKeeper({
    ledger: deps.ledger,
    owner: lease.owner,
    leaseMs: lease.ms,
    timers,
    logger: runCtx.logger,
    running: () => state.leases.keys(),
    mayClaim: () => !state.draining,
    onLost: (leadId) => state.leases.get(leadId)?.abort(),
    onClaimed: (claimed) => takeOver(state, runCtx, sealer.open, claimed),
  })
  const sweep = startRetentionSweep({
    ledger: deps.ledger,
    retentionMs: config.consentRetentionMs ?? DEFAULT_CONSENT_RETENTION_MS,
    timers,
    logger: runCtx.logger,
  })
  const parts = { state, clickSigner, sealer, lease, keeper, consentTexts }
  const ctx = marketplaceContext(deps, runCtx, parts)
  const background = { stop: async () => void (await Promise.all([keeper.stop(), sweep.stop()])) }
  const drain = (timeoutMs = drainTimeoutMs) => drainLeads(state, background, runCtx, timeoutMs)

  return {
    searchPath: BFF_ROUTES.secondLook.replace(/^\/api/, ''),
    engine: secondLookEngine(ctx),
    routes: () => marketplaceRoutes(ctx),
    pageRoutes: () => new Hono().route('/reports', reportPageRoutes()),
    settled: (searchUuid) => state.running.get(searchUuid.toLowerCase()) ?? Promise.resolve(),
    get inFlight() {
      return state.running.size
    },
    drain,
    async close() {
      state.draining = true
      state.shutdown.abort()
      await drain(0)
      await ownedDispatcher?.close()
    },
    clickSigner,
  }
}

/** What every lead this process runs is run with: the dependencies, their defaults, and the shutdown. */
function runLeadContext(
  deps: MarketplaceDeps,
  state: LeadsState,
  resolved: Pick<RunLeadContext, 'registry' | 'timers' | 'dispatcher'> & {
    deadlineMs: number
    firstLookDeadlineMs: number
  },
): RunLeadContext {
  const { config } = deps
  const logger = deps.logger ?? pino({ level: 'silent' })
  const hashPartnerLeadId = createPartnerLeadIdHasher(deps.secret, deps.leadIdKey)
  const metrics = createSecondLookMetrics(deps.metricsRegistry ?? new Registry(), {
    partners: deps.registry.map((p) => ({ id: p.id, tier: p.tier, productType: p.display.productType })),
    inFlight: () => state.running.size,
  })
  return {
    ledger: deps.ledger,
    registry: resolved.registry,
    policy: config.winnerPolicy,
    scorer: deps.scorer ?? scoreOffer,
    dispatcher: resolved.dispatcher,
    timers: resolved.timers,
    logger,
    metrics,
    maxReplyBytes: config.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
    shutdown: state.shutdown.signal,
    windowMs: resolved.deadlineMs,
    firstLookDeadlineMs: resolved.firstLookDeadlineMs,
    writeRetryMs: config.writeRetryMs ?? 30_000,
    hashPartnerLeadId,
  }
}

/** What the routes share (`MarketplaceContext`): the run context's parts, intake's hashers and hooks. */
function marketplaceContext(
  deps: MarketplaceDeps,
  runCtx: RunLeadContext,
  parts: {
    state: LeadsState
    clickSigner: ClickSigner
    sealer: LeadSealer
    lease: MarketplaceContext['lease']
    keeper: LeaseKeeper
    consentTexts: OperatorConsentTexts | undefined
  },
): MarketplaceContext {
  const { config } = deps
  const { state, sealer, keeper } = parts
  return {
    consentTexts: parts.consentTexts,
    clickTokenTtlMs: config.clickTokenTtlMs ?? DEFAULT_CLICK_TOKEN_TTL_MS,
    hashApplicant: createApplicantHasher(deps.secret, { sampleSsns: config.sandboxMode }),
    duplicateWindowMs: config.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS,
    sampleApplicants: config.sandboxMode,
    maxBirthDatesPerSsn: config.maxBirthDatesPerSsn ?? DEFAULT_MAX_BIRTH_DATES_PER_SSN,
    ledger: deps.ledger,
    registry: runCtx.registry,
    policy: config.winnerPolicy,
    scorer: runCtx.scorer,
    clickSigner: parts.clickSigner,
    hashBody: createBodyHasher(deps.secret),
    hashPartnerLeadId: runCtx.hashPartnerLeadId,
    reportsToken: config.reportsToken,
    publicBaseUrl: config.publicBaseUrl?.replace(/\/+$/, ''),
    searches: createSearchCache(deps.ledger, { timers: runCtx.timers }),
    windowMs: runCtx.windowMs,
    firstLookDeadlineMs: runCtx.firstLookDeadlineMs,
    logger: runCtx.logger,
    metrics: runCtx.metrics,
    timers: runCtx.timers,
    draining: () => state.draining,
    lease: parts.lease,
    seal: (lead) => sealer.seal(lead),
    onPendingReplay: () => keeper.poke(),
    withdraw: (leadId) => withdrawLead(state, runCtx, leadId),
    startRun: (searchUuid, run) => startRun(state, runCtx, searchUuid, run),
  }
}
