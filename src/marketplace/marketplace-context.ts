/**
 * @module What every marketplace route shares, built once by `createMarketplace`. The marketplace takes
 * nothing of the BFF: the BFF serves its search engine with its own access tokens, visitor identity and
 * limits (`searchApiRoutes`). With it, it shares only the server plumbing of `src/http/` (the search
 * resource, the error registry, the bounded JSON and capped body readers).
 */
import type { Logger } from 'pino'
import type { Lead } from '../contract/partner.ts'
import type { Timers } from '../http/timers.ts'
import type { Ledger } from '../ledger/index.ts'
import type { SearchCache } from '../ledger/search-cache.ts'
import type { WinnerPolicy } from './auction/auction.ts'
import type { Scorer } from './auction/score.ts'
import type { ClickSigner } from './clicks/click-token.ts'
import type { OperatorConsentTexts } from './consent/consent-texts.ts'
import type { LeadRun } from './fan-out/run-lead.ts'
import type { ApplicantHasher } from './intake/applicant-key.ts'
import type { PartnerRegistryEntry } from './registry/partner-registry.ts'
import type { SecondLookMetrics } from './second-look-metrics.ts'

export interface MarketplaceContext {
  ledger: Ledger
  registry: ReadonlyMap<string, PartnerRegistryEntry>
  policy: WinnerPolicy
  scorer: Scorer
  clickSigner: ClickSigner
  /** Lifetime of a click link: a duplicate applicant gets the first application's offers within it. */
  clickTokenTtlMs: number
  /** The operator's FCRA and TCPA texts; undefined outside sandbox mode without `CONSENT_TEXTS_FILE`. */
  consentTexts: OperatorConsentTexts | undefined
  /** The applicant's keys (keyed hashes of SSN and date of birth, of email and phone, of the SSN). */
  hashApplicant: ApplicantHasher
  /** Sandbox mode: the sample applicants' SSNs (the SSA's advertising range) are taken as real. */
  sampleApplicants: boolean
  /** Dates of birth one SSN may apply with within the window; past it an application is held for review. */
  maxBirthDatesPerSsn: number
  /** How long one application holds its applicant (`DUPLICATE_WINDOW_DAYS`); 0: no duplicate check. */
  duplicateWindowMs: number
  hashBody: (body: unknown) => string
  /** Keyed hash of a partner's raw `lead_id`: what conversions match on. */
  hashPartnerLeadId: (rawLeadId: string) => string
  reportsToken: string | undefined
  /** Absolute origin of click links; the request's own origin when unset. */
  publicBaseUrl: string | undefined
  /** Polls read through this: one ledger read per search per second however many pollers. */
  searches: SearchCache
  /** Cap on each partner's window (docs/partner-interface.md's 12 s). */
  windowMs: number
  /** First look closes at this when partners are still out. */
  firstLookDeadlineMs: number
  logger: Logger
  metrics: SecondLookMetrics
  timers: Timers
  /** True once a shutdown has begun: intake refuses new leads so the load balancer sends them elsewhere. */
  draining(): boolean
  /** Starts the background fan-out of an accepted lead. */
  startRun(searchUuid: string, run: LeadRun): void
  /** This replica as a new lead's owner, and how long it holds the lead before another may take it over. */
  lease: { owner: string; ms: number }
  /** The lead sealed for a takeover. */
  seal(lead: Lead): string
  /** A lead intake answered 503: if it was written late after all, it is marked failed and never sent. */
  withdraw(leadId: string): void
  /** Looks now for leads whose owner died (a retried key found its lead still pending). */
  onPendingReplay(): Promise<void>
}
