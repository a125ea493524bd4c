/**
 * @module The ledger's reports as it answers them: the partner report, the suppression list, the duplicate
 * applications and the publisher's placements. Plain data: the partner reports page's script reads its API's
 * answers as these shapes (a type-only import, the one the room rules let it make of a server room).
 */
import type { OfferOutcome, RequestStatus } from './types.ts'

/** Duplicate applications per UTC day of `[from, to)`, for the operator. */
export interface DuplicatesReport {
  from: string
  to: string
  duplicates: number
  shown: number
  refused: number
  daily: Array<{ date: string; duplicates: number; shown: number; refused: number }>
}

/** Per reply status: how many, and how long the partner took (timeouts: the window it was given). */
export interface ReplyStats {
  status: Exclude<RequestStatus, 'pending'>
  count: number
  averageLatencyMs: number | null
  p95LatencyMs: number | null
  maxLatencyMs: number | null
}

/** One cause of a rejection, an error or a timeout, with how often and how slowly it happened. */
export interface ReplyCause {
  status: 'rejected' | 'error' | 'timeout'
  /** The partner's `reason` (redacted), or our description of a transport or contract failure. */
  reason: string
  httpStatus: number | null
  count: number
  averageLatencyMs: number | null
}

/** What a partner's contract bills (docs/partner-interface.md: "on click or on conversion"). */
export type ContractPays = 'per_click' | 'per_conversion'

/** The lead dimensions a partner report breaks down by (src/marketplace/reports/lead-bands.ts). */
export type BreakdownDimension = 'state' | 'creditBand' | 'loanPurpose' | 'amountBand' | 'placement'

/** One value of a dimension: the figures of the partner's leads that have it. */
export interface BreakdownRow {
  /** The state, or the band's name; `not_recorded` for leads stored before the dimension existed. */
  value: string
  requests: number
  responsesWithOffers: number
  offers: number
  offersDisplayed: number
  uniqueClicks: number
  /** Average bid of the offers, USD; null with no offers. */
  averageBid: number | null
}

export interface PartnerReport {
  partnerId: string
  from: string
  to: string
  requests: number
  responsesWithOffers: number
  offersReturned: number
  /** Offers that won their lead's auction (whether or not anyone saw them). */
  offersWon: number
  /** Unique impressions: winning offers the widget rendered (their pixel reached us), once per lead and offer. */
  offersDisplayed: number
  uniqueClicks: number
  /** Conversions the partner posted back (`POST /api/conversions`), at most one per lead. */
  conversions: number
  /** Sum of the posted conversions' `amount`, in `currency` (exact to the cent). */
  conversionAmount: number
  /** The unit of every bid and amount in the report (docs/partner-interface.md: the interface leaves it open). */
  currency: 'USD'
  /** What the partner's contract bills: the basis of `spend`. */
  pays: ContractPays
  /**
   * What the partner owes for the leads of the range: the bids of its clicked offers (per click), or of the
   * offers shown to or clicked by the leads it posted a conversion for (per conversion). Exact to the cent.
   */
  spend: number
  /** Offers dropped for breaking the contract on their own: a URL carrying the lead's PII. */
  offersDropped: number
  /** `offersWon / offersReturned`; null when nothing was returned. */
  winRate: number | null
  /** `uniqueClicks / offersDisplayed`; null when nothing was displayed. */
  clickThroughRate: number | null
  averageBidByProductType: Array<{ productType: string; offers: number; averageBid: number }>
  /** Every answered request by status, with latency. */
  replies: ReplyStats[]
  /** The most frequent rejection, error and timeout causes (at most 50), most frequent first. */
  causes: ReplyCause[]
  /** Per UTC day: the chart of the reports page. */
  daily: Array<{
    date: string
    requests: number
    responsesWithOffers: number
    offersDisplayed: number
    uniqueClicks: number
    conversions: number
    /** `spend` of the leads sent that day. */
    spend: number
  }>
  /** The partner's leads by state, credit band, loan purpose and amount band, most requests first. */
  breakdowns: Record<BreakdownDimension, BreakdownRow[]>
  /** Lead-level win/loss: one entry per lead sent to the partner, newest first. */
  leads: Array<{
    leadId: string
    partnerLeadId: string | null
    sentAt: string
    status: RequestStatus
    reason: string | null
    httpStatus: number | null
    latencyMs: number | null
    converted: boolean
    /**
     * The outcome of a request none of whose offers reached the auction: `timed_out` (no reply within the
     * window), `dropped_by_contract_check` (every offer broke the contract). Null otherwise: its offers
     * carry theirs, or it was rejected or failed (`status`, `reason`).
     */
    outcome: Extract<OfferOutcome, 'timed_out' | 'dropped_by_contract_check'> | null
    /** Offers of the reply dropped by a contract check (PII, a bad link, a bid over the cap): never stored. */
    offersDropped: number
    offers: Array<{
      offerId: string
      productType: string
      rate: number
      result: 'won' | 'lost'
      /** Why it won or lost; null on offers settled before migration 0007 or not settled yet. */
      outcome: OfferOutcome | null
      /** Its bid's rank within its product type for the lead, 1 = highest (equal bids share a rank). */
      bidRank: number | null
      /** The winning bid of its product type minus its own, USD; 0 for the winner; null with no winner. */
      gapToWinningBid: number | null
      /** The widget rendered it (a unique impression). */
      displayed: boolean
      clicked: boolean
    }>
  }>
  /** True when `leads` was cut at the row limit; the totals above are always complete. */
  leadsTruncated: boolean
}

/** A lead sent to the partner that did not click its offer: the partner must not remarket to it (docs/partner-interface.md). */
export interface SuppressedLead {
  /** The partner's own `lead_id` for it; null when the partner never answered with one (a timeout). */
  partnerLeadId: string | null
  leadId: string
  sentAt: string
}

export interface SuppressionList {
  partnerId: string
  from: string
  to: string
  leads: SuppressedLead[]
  /** True when `leads` was cut at the row limit: ask again with a shorter range. */
  truncated: boolean
}

/** One UTC day and placement of the publisher report (`GET /reports/placements`, docs/placements.md). */
export interface PlacementReportRow {
  date: string
  /** Null: searches and leads that carried no placement. */
  placement: string | null
  searches: number
  searchesCompleted: number
  offersShown: number
  clicks: number
  secondLookLeads: number
  secondLookOffersShown: number
  secondLookClicks: number
  /** US dollars, exact to the cent: what partners owe for these leads under their contracts. */
  earnings: number
}

export interface PlacementsReport {
  from: string
  to: string
  rows: PlacementReportRow[]
}
