/**
 * @module The ledger's one pg-core schema, shared by PGlite and PostgreSQL. It holds what docs/partner-interface.md's
 * partner reports need and nothing of the lead's identity: no SSN, date of birth, phone, email, name or
 * street address; a lead is its id, state and ZIP. No foreign keys: drizzle-kit qualifies their targets
 * with "public", which would pin the ledger to one PostgreSQL schema; the store keeps rows consistent.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

// The applicant's tables (claims, duplicates, held applications, withdrawn leads) have a module of their own.
export {
  applicantClaims,
  duplicateApplications,
  heldApplications,
  withdrawnLeads,
} from './applicant-tables.ts'

/** One submitted lead, which is also the second-look rate table the widget polls. */
export const leads = pgTable(
  'marketplace_leads',
  {
    id: uuid('id').primaryKey(),
    searchUuid: uuid('search_uuid').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** HMAC of the submitted body: tells a retry from a different submit without keeping the body. */
    bodyHash: text('body_hash'),
    /**
     * `pending` while partners are awaited, `complete` once the auction has settled, `failed` when it could
     * not settle (see `failureReason`).
     */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    deadlineAt: timestamp('deadline_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    /** Why a `failed` lead did not settle, in words an operator can act on. */
    failureReason: text('failure_reason'),
    /**
     * The replica running the lead's fan-out, and until when it holds it: it renews the lease while the lead
     * runs, and once the lease has run out any live replica may claim the lead and finish it
     * (`marketplace/takeover/`).
     */
    owner: text('owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    /**
     * The applicant's duplicate key: HMAC-SHA-256 of the SSN's digits and the date of birth under a key
     * derived from `SESSION_SECRET`, never the values (docs/decisions/0106-duplicate-applicants.md). Null
     * when the duplicate check is off, and on leads from before it.
     */
    applicantKey: text('applicant_key'),
    /**
     * The dimensions partner reports break down by (docs/decisions/0112-offer-outcomes.md): the credit
     * rating band, the loan purpose from our list (`other` for anything else, so no free text is kept) and
     * the amount band. Null on leads from before migration 0007.
     */
    creditBand: text('credit_band'),
    loanPurpose: text('loan_purpose'),
    amountBand: text('amount_band'),
    /**
     * The publisher's placement the lead came from (docs/placements.md): a short id the contract bounds
     * (src/contract/placement.ts), never visitor data. Null without one, and on leads from before migration 0008.
     */
    placement: text('placement'),
  },
  (t) => [
    uniqueIndex('marketplace_leads_search_uuid').on(t.searchUuid),
    index('marketplace_leads_applicant_key').on(t.applicantKey, t.createdAt),
    uniqueIndex('marketplace_leads_idempotency_key').on(t.idempotencyKey),
    index('marketplace_leads_created_at').on(t.createdAt),
    // The sweep that closes leads left unsettled looks for pending ones by deadline.
    index('marketplace_leads_pending_deadline').on(t.deadlineAt).where(sql`status = 'pending'`),
    // Takeover looks for pending leads whose lease has run out.
    index('marketplace_leads_pending_lease').on(t.leaseUntil).where(sql`status = 'pending'`),
  ],
)

/**
 * The lead as its partners are sent it, sealed (AES-256-GCM under a key derived from `SESSION_SECRET`), kept
 * only while the lead is pending so that another replica can ask its partners again if the one running it
 * dies. Deleted in the statement that settles the lead; nothing else in the ledger holds the lead's identity.
 */
export const leadHandoffs = pgTable('marketplace_lead_handoffs', {
  leadId: uuid('lead_id').primaryKey(),
  sealed: text('sealed').notNull(),
})

/** One lead sent to one partner: the request, then its reply or its timeout. */
export const partnerRequests = pgTable(
  'marketplace_partner_requests',
  {
    id: uuid('id').primaryKey(),
    leadId: uuid('lead_id').notNull(),
    partnerId: text('partner_id').notNull(),
    tier: text('tier').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** `pending`, then `approved`, `rejected`, `error` (reply or transport) or `timeout`. */
    status: text('status').notNull(),
    reason: text('reason'),
    httpStatus: integer('http_status'),
    /** The partner's `lead_id` with the lead's identifying values masked (what reports show). */
    partnerLeadId: text('partner_lead_id'),
    /**
     * HMAC-SHA-256 of the partner's raw `lead_id` under the server's lead-id key: a conversion postback names
     * the raw id, which the masked form can neither match nor tell apart from another id masked alike.
     */
    partnerLeadIdHash: text('partner_lead_id_hash'),
    latencyMs: integer('latency_ms'),
    offerCount: integer('offer_count').notNull().default(0),
    /** Offers of the reply dropped for breaking the contract on their own (a URL carrying the lead's PII). */
    offersDropped: integer('offers_dropped').notNull().default(0),
    repliedAt: timestamp('replied_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('marketplace_partner_requests_lead_partner').on(t.leadId, t.partnerId),
    index('marketplace_partner_requests_partner_sent').on(t.partnerId, t.sentAt),
    // A conversion postback names the partner's own lead_id: matched by its hash. (Rows from before the hash
    // match on the stored id, through the partner's rows of `partner_sent`: no index of their own, so every
    // reply still maintains as many indexes as before.)
    index('marketplace_partner_requests_partner_lead_id_hash').on(t.partnerId, t.partnerLeadIdHash),
  ],
)

/** One offer of an approved reply, whether or not it won the auction. */
export const offers = pgTable(
  'marketplace_offers',
  {
    id: uuid('id').primaryKey(),
    leadId: uuid('lead_id').notNull(),
    requestId: uuid('request_id').notNull(),
    partnerId: text('partner_id').notNull(),
    /** Index of the offer in the partner's reply: the auction's last tie-break. */
    position: integer('position').notNull(),
    rate: doublePrecision('rate').notNull(),
    productType: text('product_type').notNull(),
    recommendationScore: doublePrecision('recommendation_score').notNull(),
    /** The partner's destination; it leaves the server only as the 302 of a click. */
    clickUrl: text('click_url').notNull(),
    name: text('name'),
    displayName: text('display_name'),
    offerDetails: text('offer_details'),
    logoSrc: text('logo_src'),
    /**
     * The partner's `loan_terms` as they passed the contract (docs/partner-interface.md, "Loan terms"), null
     * when it sent none or they broke it. jsonb: read whole with the offer, never queried by figure.
     */
    loanTerms: jsonb('loan_terms'),
    displayed: boolean('displayed').notNull().default(false),
    rank: integer('rank'),
    /**
     * What the auction decided of the offer, written when the lead settles (docs/decisions/0112-offer-outcomes.md):
     * `won`, `outbid`, `lost_to_own_offer` or `ruled_out_by_phase`; its bid rank within its product type
     * (1 = highest); the winning bid of its type minus its own, in cents (null with no winner). Null until
     * the lead settles, and on offers settled before migration 0007: reports never re-run an auction.
     */
    outcome: text('outcome'),
    bidRank: integer('bid_rank'),
    gapCents: integer('gap_cents'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('marketplace_offers_lead').on(t.leadId), index('marketplace_offers_partner').on(t.partnerId)],
)

/** Unique clicks: at most one row per lead and offer, whatever the number of clicks. */
export const clicks = pgTable(
  'marketplace_clicks',
  {
    offerId: uuid('offer_id').primaryKey(),
    leadId: uuid('lead_id').notNull(),
    partnerId: text('partner_id').notNull(),
    clickedAt: timestamp('clicked_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('marketplace_clicks_partner').on(t.partnerId, t.clickedAt),
    // The suppression export asks, per lead sent, whether it clicked.
    index('marketplace_clicks_lead').on(t.leadId, t.partnerId),
  ],
)

/**
 * Unique impressions: the first time the widget rendered an offer (its signed pixel reached us), one row
 * per lead and offer. The partner interface's "offers displayed" (docs/partner-interface.md) counts these, not auction winners nobody saw.
 */
export const impressions = pgTable(
  'marketplace_impressions',
  {
    offerId: uuid('offer_id').primaryKey(),
    leadId: uuid('lead_id').notNull(),
    partnerId: text('partner_id').notNull(),
    impressedAt: timestamp('impressed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('marketplace_impressions_partner').on(t.partnerId, t.impressedAt)],
)

/**
 * Conversions a partner posted back for its own `lead_id`: at most one per partner and lead id (a repeated
 * postback changes nothing), keyed by the id's hash. `request_id` ties it to the lead sent, so reports
 * count it by send date.
 */
export const conversions = pgTable(
  'marketplace_conversions',
  {
    id: uuid('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    /** The request's masked `lead_id`, never the id as posted (it may carry the lead's PII). */
    partnerLeadId: text('partner_lead_id').notNull(),
    /** HMAC of the raw `lead_id`, as on the request; null on conversions recorded before it existed. */
    partnerLeadIdHash: text('partner_lead_id_hash'),
    leadId: uuid('lead_id').notNull(),
    requestId: uuid('request_id').notNull(),
    /** When the partner says the lead converted; when we received it if the partner did not say. */
    convertedAt: timestamp('converted_at', { withTimezone: true, mode: 'date' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * What the partner pays for it, in US cents (exact: whole numbers, summed without rounding); absent when
     * the contract pays per click. At most 100 000 000 (1 000 000.00 USD) each, so no sum overflows.
     */
    amountCents: bigint('amount_cents', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('marketplace_conversions_partner_lead_hash').on(t.partnerId, t.partnerLeadIdHash),
    index('marketplace_conversions_partner_lead').on(t.partnerId, t.partnerLeadId),
    index('marketplace_conversions_request').on(t.requestId),
  ],
)

/**
 * Every consent text a lead was given with, once (docs/decisions/0105-consent-records.md): keyed by its
 * content hash, so an edited text is a new row and a record always points at the words the visitor saw.
 */
export const consentTexts = pgTable('marketplace_consent_texts', {
  id: text('id').primaryKey(),
  /** `fcra` or `tcpa`. */
  kind: text('kind').notNull(),
  /** The operator's version of the newest set of texts holding it, when it was first stored. */
  version: text('version').notNull(),
  text: text('text').notNull(),
  firstStoredAt: timestamp('first_stored_at', { withTimezone: true, mode: 'date' }).notNull(),
})

/**
 * Proof of the consent given with a lead, written with the lead (write-ahead): the texts shown, the boxes,
 * when, on which page (no query string or fragment), the visitor's IP address and user agent as partners
 * were sent them, the widget version, and a TrustedForm or Jornaya certificate when the page ran one. Never
 * the lead's SSN, date of birth, name, email, phone or address. Deleted after `CONSENT_RETENTION_DAYS`.
 */
export const consentRecords = pgTable(
  'marketplace_consent_records',
  {
    leadId: uuid('lead_id').primaryKey(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
    fcraTextId: text('fcra_text_id').notNull(),
    /** Always true: a lead without FCRA consent is refused. */
    fcraChecked: boolean('fcra_checked').notNull(),
    tcpaTextId: text('tcpa_text_id'),
    /** `consentstoTcpa` as given: true, false, or null when absent. */
    tcpaChecked: boolean('tcpa_checked'),
    pageUrl: text('page_url'),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent').notNull(),
    /** The `X-Offer-Widget` header; null for a lead sent without it (server to server). */
    widgetVersion: text('widget_version'),
    trustedFormCertUrl: text('trusted_form_cert_url'),
    leadiDToken: text('leadid_token'),
  },
  (t) => [index('marketplace_consent_records_recorded_at').on(t.recordedAt)],
)

/**
 * An insurance offer search the BFF created (docs/placements.md): its placement (null without one), when, and
 * when the BFF first served it final (no partner pending). Nothing of the visitor.
 */
export const placementSearches = pgTable(
  'placement_searches',
  {
    searchUuid: uuid('search_uuid').primaryKey(),
    placement: text('placement'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('placement_searches_created_at').on(t.createdAt)],
)

/**
 * The widget's measure of an insurance search: one row per search and offer, with when it was first shown
 * and first clicked. The key makes a repeated measure change nothing.
 */
export const placementSearchOffers = pgTable(
  'placement_search_offers',
  {
    searchUuid: uuid('search_uuid').notNull(),
    /** The upstream's offer uuid, as the widget names it (bounded by the measure's contract). */
    offerId: text('offer_id').notNull(),
    shownAt: timestamp('shown_at', { withTimezone: true, mode: 'date' }),
    clickedAt: timestamp('clicked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.searchUuid, t.offerId] })],
)
