/**
 * @module The ledger's records as its callers write and read them: plain data, no driver types.
 */

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
  idempotencyKey?: string | undefined
  bodyHash?: string | undefined
  createdAt: Date
  deadlineAt: Date
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
}

export interface ReplyRecord {
  requestId: string
  leadId: string
  partnerId: string
  status: Exclude<RequestStatus, 'pending'>
  reason?: string | undefined
  httpStatus?: number | undefined
  partnerLeadId?: string | undefined
  latencyMs: number
  repliedAt: Date
  offers: OfferRecord[]
}

/** What follows the last reply of a tier, written in the same transaction so no poll sees a gap. */
export type TierClose =
  | { kind: 'next-tier'; requests: SentRequest[] }
  | { kind: 'settle'; winners: Array<{ offerId: string; rank: number }>; completedAt: Date }

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
  extends Required<Omit<OfferRecord, 'name' | 'displayName' | 'offerDetails' | 'logoSrc'>> {
  leadId: string
  partnerId: string
  name: string | null
  displayName: string | null
  offerDetails: string | null
  logoSrc: string | null
  displayed: boolean
  rank: number | null
  createdAt: Date
}

export interface SearchSnapshot {
  lead: LeadRow
  /** Partners still awaited, in the order they were sent. */
  pending: Array<{ partnerId: string; tier: Tier }>
  /** The auction's winners by rank; empty until the lead is settled. */
  displayed: StoredOffer[]
}

export type CreateLeadResult = { created: true; lead: LeadRow } | { created: false; lead: LeadRow }

export interface PartnerReport {
  partnerId: string
  from: string
  to: string
  requests: number
  responsesWithOffers: number
  offersReturned: number
  offersDisplayed: number
  uniqueClicks: number
  averageBidByProductType: Array<{ productType: string; offers: number; averageBid: number }>
  /** Per UTC day: the chart of the reports page. */
  daily: Array<{
    date: string
    requests: number
    responsesWithOffers: number
    offersDisplayed: number
    uniqueClicks: number
  }>
  /** Lead-level win/loss: one entry per lead sent to the partner, newest first. */
  leads: Array<{
    leadId: string
    partnerLeadId: string | null
    sentAt: string
    status: RequestStatus
    offers: Array<{
      offerId: string
      productType: string
      rate: number
      result: 'won' | 'lost'
      clicked: boolean
    }>
  }>
  /** True when `leads` was cut at the row limit; the totals above are always complete. */
  leadsTruncated: boolean
}
