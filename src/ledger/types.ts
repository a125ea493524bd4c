/**
 * @module The ledger's records as its callers write and read them: plain data, no driver types.
 */
import type { PartnerLoanTerms } from '../contract/loan-terms.ts'

/** A partner's tier: first look is asked first, second look when first look returned no offer. */
export type Tier = 'first' | 'second'
/** `pending` until the partner answers; `timeout` when its window closed first. */
export type RequestStatus = 'pending' | 'approved' | 'rejected' | 'error' | 'timeout'

export interface NewLead {
  /** The lead uuid (the rate table's `leadUuid`). */
  id: string
  /** The rate table's `uuid`, the one the widget polls. */
  searchUuid: string
  state: string
  zip: string
  /** The report dimensions of the lead (src/marketplace/reports/lead-bands.ts): coarse, never identifying. */
  creditBand?: string | undefined
  loanPurpose?: string | undefined
  amountBand?: string | undefined
  /** The publisher's placement (docs/placements.md); recorded, never sent to a partner that did not opt in. */
  placement?: string | undefined
  idempotencyKey?: string | undefined
  bodyHash?: string | undefined
  createdAt: Date
  deadlineAt: Date
  /** The replica that runs the lead's fan-out, holding it until `leaseUntil` (it renews while it runs). */
  owner?: string | undefined
  leaseUntil?: Date | undefined
  /**
   * The lead as partners are sent it, sealed: kept while the lead is pending so another replica can take it
   * over (`marketplace_lead_handoffs`), deleted when it settles.
   */
  sealed?: string | undefined
  /**
   * The applicant's duplicate key and the end of its window: the lead is written only if it claims the key
   * (no other lead holds it, or that lead's window has ended); else `createLead` answers `duplicate`.
   */
  applicant?: { key: string; expiresAt: Date } | undefined
  /** Proof of the consent given with the lead, written in the same statement. */
  consent?: NewConsentRecord | undefined
}

/** A consent text as shown (docs/decisions/0105-consent-records.md): stored once, under its content hash. */
export interface ConsentTextRecord {
  id: string
  kind: 'fcra' | 'tcpa'
  version: string
  text: string
}

/** What intake records of a lead's consent; its time is the lead's `createdAt`. */
export interface NewConsentRecord {
  fcra: ConsentTextRecord
  /** The TCPA text sent with the lead, if any. */
  tcpa?: ConsentTextRecord | undefined
  /** `consentstoTcpa`: true, false, or undefined when absent. */
  tcpaChecked?: boolean | undefined
  /** The page, without query string or fragment. */
  pageUrl?: string | undefined
  /** The visitor's, as partners are sent them. */
  ipAddress: string
  userAgent: string
  /** `X-Offer-Widget`; undefined for a lead sent without it. */
  widgetVersion?: string | undefined
  trustedFormCertUrl?: string | undefined
  leadiDToken?: string | undefined
}

/** A consent record as the reports serve it (`GET /api/reports/consent/:leadId`). */
export interface ConsentRecord {
  leadId: string
  recordedAt: string
  pageUrl: string | null
  ipAddress: string
  userAgent: string
  widgetVersion: string | null
  certificate: { trustedFormCertUrl?: string; leadiDToken?: string } | null
  fcra: { version: string; textId: string; text: string; checked: true }
  /** Null when the lead carried neither a TCPA text nor `consentstoTcpa`. */
  tcpa: { version: string | null; textId: string | null; text: string | null; checked: boolean | null } | null
}

export interface SentRequest {
  id: string
  partnerId: string
  tier: Tier
  sentAt: Date
}

export interface OfferRecord {
  id: string
  position: number
  rate: number
  productType: string
  recommendationScore: number
  clickUrl: string
  name?: string | undefined
  displayName?: string | undefined
  offerDetails?: string | undefined
  logoSrc?: string | undefined
  /** The partner's `loan_terms` once they passed `partnerLoanTermsSchema`; never terms that did not. */
  loanTerms?: PartnerLoanTerms | undefined
}

export interface ReplyRecord {
  requestId: string
  leadId: string
  partnerId: string
  status: Exclude<RequestStatus, 'pending'>
  reason?: string | undefined
  httpStatus?: number | undefined
  /** The partner's `lead_id`, masked: what reports show. */
  partnerLeadId?: string | undefined
  /** Keyed hash of the raw `lead_id`: what a conversion postback is matched on. */
  partnerLeadIdHash?: string | undefined
  latencyMs: number
  repliedAt: Date
  offers: OfferRecord[]
  /** Offers of the reply dropped for breaking the contract on their own (their URL carried the lead's PII). */
  offersDropped?: number | undefined
}

/**
 * Why an offer won or lost (docs/decisions/0112-offer-outcomes.md). The auction settles the first four on
 * stored offers; `timed_out` and `dropped_by_contract_check` are what a report says of offers that never
 * reached it (a reply after the window, an offer dropped by a contract check), which are not stored.
 */
export type OfferOutcome =
  | 'won'
  | 'outbid'
  | 'lost_to_own_offer'
  | 'ruled_out_by_phase'
  | 'timed_out'
  | 'dropped_by_contract_check'

/** What the auction decided of one stored offer, written with the settle. */
export interface OfferSettlement {
  offerId: string
  outcome: Extract<OfferOutcome, 'won' | 'outbid' | 'lost_to_own_offer' | 'ruled_out_by_phase'>
  /** 1 + the offers of its product type for the lead bidding strictly more. */
  bidRank: number
  /** The winning bid of its product type minus this one, in cents; null when the type has no winner. */
  gapCents: number | null
}

/** What follows the last reply of a tier, written in the same transaction so no poll sees a gap. */
export type TierClose =
  | { kind: 'next-tier'; requests: SentRequest[] }
  | {
      kind: 'settle'
      winners: Array<{ offerId: string; rank: number }>
      /** Every offer the auction saw (docs/decisions/0112-offer-outcomes.md). */
      outcomes: OfferSettlement[]
      completedAt: Date
    }

export interface LeadRow {
  id: string
  searchUuid: string
  state: string
  zip: string
  bodyHash: string | null
  /** `failed`: it could not settle (the ledger was away past every retry, or its process stopped). */
  status: 'pending' | 'complete' | 'failed'
  createdAt: Date
  deadlineAt: Date
  completedAt: Date | null
  failureReason: string | null
}

export interface StoredOffer
  extends Required<Omit<OfferRecord, 'name' | 'displayName' | 'offerDetails' | 'logoSrc' | 'loanTerms'>> {
  leadId: string
  partnerId: string
  name: string | null
  displayName: string | null
  offerDetails: string | null
  logoSrc: string | null
  /** As stored: read it again with `partnerLoanTermsSchema` before showing it (a row may predate a bound). */
  loanTerms: unknown
  displayed: boolean
  rank: number | null
  createdAt: Date
}

/** One partner a lead was sent to, as far as the search's progress needs it. */
export interface RequestProgress {
  partnerId: string
  tier: Tier
  status: RequestStatus
  sentAt: Date
  offerCount: number
}

export interface SearchSnapshot {
  lead: LeadRow
  /** Partners still awaited, in the order they were sent. */
  pending: Array<{ partnerId: string; tier: Tier }>
  /** Every partner the lead was sent to so far (both tiers), in the order they were sent. */
  requests: RequestProgress[]
  /** The auction's winners by rank; empty until the lead is settled. */
  displayed: StoredOffer[]
}

/** A request of a lead taken over, with what the ledger recorded of it. */
interface ClaimedRequest extends SentRequest {
  status: RequestStatus
}

/** An offer recorded for a lead taken over: what its auction settles on. */
interface RecordedOffer {
  id: string
  partnerId: string
  tier: Tier
  position: number
  rate: number
  productType: string
  recommendationScore: number
}

/** A pending lead whose lease had run out, now held by the replica that claimed it. */
export interface ClaimedLead {
  lead: LeadRow
  requests: ClaimedRequest[]
  offers: RecordedOffer[]
  /** The sealed lead; absent for leads written before takeover existed, or already settled. */
  sealed: string | undefined
}

/**
 * `created`; or not, because its idempotency key is held (`lead`: the holder); or because its applicant
 * key is (`duplicate`: the lead holding it, undefined when that lead is no longer readable, and when it
 * claimed the key).
 */
export type CreateLeadResult =
  | { created: true; lead: LeadRow }
  | { created: false; lead: LeadRow }
  | { created: false; duplicate: FirstApplication }

/** The application that holds an applicant's duplicate window. */
export interface FirstApplication {
  lead: LeadRow | undefined
  claimedAt: Date
}

/** A duplicate application as recorded for the reports: no partner was sent it. */
export interface DuplicateApplication {
  id: string
  firstLeadId: string | undefined
  receivedAt: Date
  /** Answered with the first application's offers (201); false: refused (409). */
  shown: boolean
}

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

/** A partner's `lead_id` as a postback names it. */
export interface PartnerLeadRef {
  partnerId: string
  /**
   * The `lead_id` as posted: matched as is only against requests recorded before ids were hashed, and
   * never stored (it may carry the lead's PII; the request's masked id is stored instead).
   */
  partnerLeadId: string
  /** Keyed hash of the posted `lead_id`: what it is matched on. */
  partnerLeadIdHash: string
}

export interface ConversionInput extends PartnerLeadRef {
  convertedAt: Date
  receivedAt: Date
  /** Whole US cents, 1 to 100 000 000. */
  amountCents?: number | undefined
}

export interface ConversionRecord {
  id: string
  partnerId: string
  /** The masked `lead_id` of the request it matched. */
  partnerLeadId: string
  leadId: string
  convertedAt: Date
  receivedAt: Date
  amountCents: number | null
}

/**
 * `duplicate` for a repeated postback (the first one is returned); `unknown-lead` when no lead sent to the
 * partner has that id; `not-shown` when none of the partner's offers for that lead was displayed or clicked.
 */
export type RecordConversionResult =
  | { kind: 'created'; conversion: ConversionRecord }
  | { kind: 'duplicate'; conversion: ConversionRecord }
  | { kind: 'unknown-lead' }
  | { kind: 'not-shown' }

/**
 * What the BFF records of an insurance offer search for the placements report (docs/placements.md): its
 * creation (`completed` when the first rate table was already final), its completion, and the widget's measure
 * (offers shown, an offer clicked). Each is written once per search (per offer): a repeat changes nothing.
 */
export type SearchEvent =
  | { kind: 'created'; searchUuid: string; placement: string | null; at: Date; completed: boolean }
  | { kind: 'completed'; searchUuid: string; at: Date }
  | { kind: 'shown'; searchUuid: string; offerIds: readonly string[]; at: Date }
  | { kind: 'clicked'; searchUuid: string; offerId: string; at: Date }

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
