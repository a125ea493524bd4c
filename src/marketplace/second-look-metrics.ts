/**
 * @module Prometheus metrics of the second look, on the BFF's registry (the one `/metrics` serves): partner
 * requests by partner, tier and outcome with their latency, leads by outcome and in flight, takeovers,
 * auction winners by product type, the delivery paths (impressions, clicks, conversions), and applications
 * held for review.
 *
 * Labels are bounded: partner ids come from the registry; product types are the registry's display
 * product types plus the first `MAX_PRODUCT_TYPES` others partners send in plain snake_case (any further
 * one, or one in another shape, is `other`); outcomes and results come from fixed lists. Never a lead id,
 * uuid or URL.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { HeldReason, Tier } from '../ledger/index.ts'

/** `dropped`: the partner approved, but every offer broke the contract and none was kept. */
export type PartnerRequestOutcome = 'approved' | 'rejected' | 'error' | 'timeout' | 'dropped'
const PARTNER_OUTCOMES: readonly PartnerRequestOutcome[] = [
  'approved',
  'rejected',
  'error',
  'timeout',
  'dropped',
]

/**
 * How a lead ended in this process: settled with offers, settled without, left for the sweep (a write the
 * ledger never took), or withdrawn (intake answered 503 and the lead went to no partner).
 */
type LeadOutcome = 'with_offers' | 'no_offers' | 'unsettled' | 'withdrawn'
const LEAD_OUTCOMES: readonly LeadOutcome[] = ['with_offers', 'no_offers', 'unsettled', 'withdrawn']

/** A pixel or click: the first for its offer, a repeat, a token or offer that counts for nothing, or the ledger failed. */
type DeliveryResult = 'recorded' | 'repeat' | 'rejected' | 'failed'
const DELIVERY_RESULTS: readonly DeliveryResult[] = ['recorded', 'repeat', 'rejected', 'failed']

export type ConversionResult = 'recorded' | 'repeat' | 'unknown_lead' | 'not_shown' | 'failed'
const CONVERSION_RESULTS: readonly ConversionResult[] = [
  'recorded',
  'repeat',
  'unknown_lead',
  'not_shown',
  'failed',
]

type TakeoverResult = 'resumed' | 'settled'

const HELD_REASONS: readonly HeldReason[] = ['identity', 'ssn_cap']

export interface SecondLookMetrics {
  partnerRequest(partner: { id: string; tier: Tier }, outcome: PartnerRequestOutcome, latencyMs: number): void
  lead(outcome: LeadOutcome): void
  takeover(result: TakeoverResult): void
  /** One offer shown to the visitor (an auction winner). */
  winner(productType: string): void
  impression(result: DeliveryResult): void
  click(result: DeliveryResult): void
  conversion(result: ConversionResult): void
  /** An application held for review, sent to no partner. */
  held(reason: HeldReason): void
}

export interface SecondLookMetricsOptions {
  /** The registry's partners: their series exist at 0 from the start, so rates and alerts see them. */
  partners: ReadonlyArray<{ id: string; tier: Tier; productType: string }>
  /** Leads running in this process, read at each scrape. */
  inFlight: () => number
}

const OTHER_PRODUCT_TYPE = 'other'
/** Distinct product types a partner may add to the label set beyond the registry's. */
const MAX_PRODUCT_TYPES = 20
const PRODUCT_TYPE_SHAPE = /^[a-z][a-z0-9_]{0,39}$/

/** The metrics themselves, registered on `registry`. */
function defineMetrics(registry: Registry, inFlight: () => number) {
  const registers = [registry]
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers })
  const partnerRequests = counter(
    'second_look_partner_requests_total',
    'Leads sent to partners, by partner id, tier and outcome (approved, rejected, error, timeout, dropped: every offer broke the contract)',
    ['partner', 'tier', 'outcome'] as const,
  )
  const partnerDuration = new Histogram({
    name: 'second_look_partner_request_duration_seconds',
    help: "A partner's time to answer a lead (a timeout counts its whole window), by partner id and tier",
    labelNames: ['partner', 'tier'] as const,
    // The window is 12 s at most (docs/partner-interface.md).
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 12, 15],
    registers,
  })
  const leads = counter(
    'second_look_leads_total',
    'Second-look leads ended in this process, by outcome (with_offers, no_offers, unsettled, withdrawn)',
    ['outcome'] as const,
  )
  new Gauge({
    name: 'second_look_leads_in_flight',
    help: 'Second-look leads whose partners are being asked in this process',
    registers,
    collect() {
      this.set(inFlight())
    },
  })
  const takeovers = counter(
    'second_look_takeovers_total',
    'Leads of a replica that died, taken over here: resumed (partners still in their window) or settled on what was recorded',
    ['result'] as const,
  )
  const winners = counter(
    'second_look_auction_winners_total',
    "Offers shown to visitors (auction winners), by the registry's product type (other for a type no partner registered)",
    ['product_type'] as const,
  )
  const impressions = counter(
    'second_look_impressions_total',
    'Impression pixels of second-look offers, by result (recorded: the first for its offer)',
    ['result'] as const,
  )
  const clicks = counter(
    'second_look_clicks_total',
    'Clicks on second-look offers, by result (recorded: the first for its offer)',
    ['result'] as const,
  )
  const conversions = counter('second_look_conversions_total', "Partners' conversion postbacks, by result", [
    'result',
  ] as const)
  const held = counter(
    'second_look_held_applications_total',
    "Applications held for review and sent to no partner, by reason (identity: another contact with an applicant's SSN and date of birth; ssn_cap: an SSN past its dates of birth)",
    ['reason'] as const,
  )

  return {
    partnerRequests,
    partnerDuration,
    leads,
    takeovers,
    winners,
    impressions,
    clicks,
    conversions,
    held,
  }
}

/**
 * Every series a dashboard or alert reads exists at 0 from the start: a rate sees a partner that never
 * answered, and no panel says "no data" for a quiet process.
 */
function zeroSeries(metrics: ReturnType<typeof defineMetrics>, options: SecondLookMetricsOptions): void {
  const { partnerRequests, partnerDuration, leads, takeovers, winners, impressions, clicks, conversions } =
    metrics
  for (const partner of options.partners) {
    for (const outcome of PARTNER_OUTCOMES) {
      partnerRequests.labels({ partner: partner.id, tier: partner.tier, outcome }).inc(0)
    }
    partnerDuration.zero({ partner: partner.id, tier: partner.tier })
  }
  for (const type of [...new Set(options.partners.map((p) => p.productType)), OTHER_PRODUCT_TYPE]) {
    winners.labels({ product_type: type }).inc(0)
  }
  for (const outcome of LEAD_OUTCOMES) leads.labels({ outcome }).inc(0)
  for (const result of ['resumed', 'settled'] as const) takeovers.labels({ result }).inc(0)
  for (const result of DELIVERY_RESULTS) {
    impressions.labels({ result }).inc(0)
    clicks.labels({ result }).inc(0)
  }
  for (const result of CONVERSION_RESULTS) conversions.labels({ result }).inc(0)
  for (const reason of HELD_REASONS) metrics.held.labels({ reason }).inc(0)
}

export function createSecondLookMetrics(
  registry: Registry,
  options: SecondLookMetricsOptions,
): SecondLookMetrics {
  const metrics = defineMetrics(registry, options.inFlight)
  zeroSeries(metrics, options)
  const { partnerRequests, partnerDuration, leads, takeovers, winners, impressions, clicks, conversions } =
    metrics
  const productTypes = new Set(options.partners.map((p) => p.productType))
  const knownPartners = new Set(options.partners.map((p) => p.id))
  const registered = productTypes.size

  return {
    partnerRequest(partner, outcome, latencyMs) {
      // A partner removed from the registry since the lead was sent has no series of its own.
      const labels = {
        partner: knownPartners.has(partner.id) ? partner.id : 'unregistered',
        tier: partner.tier,
      }
      partnerRequests.labels({ ...labels, outcome }).inc()
      partnerDuration.labels(labels).observe(latencyMs / 1000)
    },
    lead: (outcome) => leads.labels({ outcome }).inc(),
    takeover: (result) => takeovers.labels({ result }).inc(),
    winner(productType) {
      if (
        !productTypes.has(productType) &&
        productTypes.size < registered + MAX_PRODUCT_TYPES &&
        PRODUCT_TYPE_SHAPE.test(productType)
      ) {
        productTypes.add(productType)
      }
      winners.labels({ product_type: productTypes.has(productType) ? productType : OTHER_PRODUCT_TYPE }).inc()
    },
    impression: (result) => impressions.labels({ result }).inc(),
    click: (result) => clicks.labels({ result }).inc(),
    conversion: (result) => conversions.labels({ result }).inc(),
    held: (reason) => metrics.held.labels({ reason }).inc(),
  }
}
