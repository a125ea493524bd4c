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
  applicant?: ApplicantClaim | undefined
  /** Proof of the consent given with the lead, written in the same statement. */
  consent?: NewConsentRecord | undefined
}

/** What a lead claims of its applicant for the duplicate window (docs/decisions/0106-duplicate-applicants.md). */
export interface ApplicantClaim {
  /** Keyed hash of the SSN and date of birth: the applicant. */
  key: string
  expiresAt: Date
  /** Keyed hash of the email and phone: who applied. */
  contactKey: string
  /**
   * Keyed hash of the SSN alone, and how many live claims (dates of birth) one SSN may hold: past the cap
   * the lead is not written and `createLead` answers `capped`. Absent: no cap (the sandbox's sample SSNs).
   */
  ssn?: { key: string; cap: number } | undefined
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
  /**
   * `failed`: it could not settle (the ledger was away past every retry, or its process stopped). `held`: an
   * application held for review (`HeldApplication`), read back as a search whose partners are awaited until
   * `deadlineAt` and that then ends with no offer.
   */
  status: 'pending' | 'complete' | 'failed' | 'held'
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
  /**
   * Read under a duplicate's own search uuid: this is the applicant's first application (created then), shown
   * again with links that redirect but never count as that application's click or impression.
   */
  duplicate?: { firstAppliedAt: Date } | undefined
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
  | { created: false; capped: true }

/** The application that holds an applicant's duplicate window. */
export interface FirstApplication {
  lead: LeadRow | undefined
  claimedAt: Date
  /** Who applied (the claim's contact key); null for a claim from before contact keys. */
  contactKey: string | null
}

/** Why an application was held for review instead of sent. */
export type HeldReason = 'identity' | 'ssn_cap'

/** An application sent to no partner and kept for review (`marketplace_held_applications`). */
export interface HeldApplication {
  id: string
  searchUuid: string
  applicantKey: string
  /** The SSN's key, for an `ssn_cap` hold (its release releases the SSN). */
  ssnKey?: string | undefined
  firstLeadId: string | undefined
  reason: HeldReason
  state: string
  zip: string
  ipAddress: string
  userAgent: string
  /** The partners its search shows awaited until `answerAt`. */
  requests: Array<{ partnerId: string; tier: Tier }>
  receivedAt: Date
  answerAt: Date
}

/** A held application as the operator reviews it. */
export interface HeldApplicationRow extends Omit<HeldApplication, 'requests' | 'applicantKey' | 'ssnKey'> {
  releasedAt: Date | null
}

/** A duplicate application as recorded for the reports: no partner was sent it. */
export interface DuplicateApplication {
  id: string
  firstLeadId: string | undefined
  receivedAt: Date
  /** Answered with the first application's offers (201); false: refused (409). */
  shown: boolean
  /** The uuid a shown duplicate reads the first application's search under. */
  searchUuid?: string | undefined
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
