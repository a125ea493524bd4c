/**
 * @module The ledger's tables about applicants rather than leads (docs/decisions/0106-duplicate-applicants.md,
 * 0089-write-ahead-ledger.md): who holds an applicant's duplicate window, the duplicates and held
 * applications it turned away, and the leads intake withdrew. Part of the one schema (`schema.ts` exports
 * them); keyed hashes and ids only, never an applicant's values.
 */
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

/**
 * The one lead that holds an applicant's duplicate window (docs/decisions/0106-duplicate-applicants.md): the
 * write of a new lead claims its applicant key in the same statement (insert, or take over a claim past its
 * `expires_at`), and a lead whose claim fails is not written. The primary key makes two intakes of one
 * applicant at once, on any replica, fan out once.
 */
export const applicantClaims = pgTable(
  'marketplace_applicant_claims',
  {
    applicantKey: text('applicant_key').primaryKey(),
    leadId: uuid('lead_id').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The end of the window: a new application from then on fans out again. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * Who applied: HMAC of the email and phone under their own derived key. Only an application with the
     * same contact is answered with this lead's search; null on claims from before migration 0009.
     */
    contactKey: text('contact_key'),
    /**
     * HMAC of the SSN's digits alone: live claims of one SSN across dates of birth are capped. Null on
     * claims from before migration 0009, and for the sandbox's sample SSNs.
     */
    ssnKey: text('ssn_key'),
  },
  (t) => [
    index('marketplace_applicant_claims_expires_at').on(t.expiresAt),
    index('marketplace_applicant_claims_ssn_key').on(t.ssnKey),
  ],
)

/**
 * An application sent to no partner and kept for the operator's review: another contact applying with an
 * applicant's SSN and date of birth within the window (`identity`), or one SSN past its cap of dates of
 * birth (`ssn_cap`). It is answered like any new application (a search that ends with no offer), so a
 * stranger learns nothing of the first; `requests` are the partners that search shows awaited until
 * `answer_at`. Keeps the network address and user agent (as a consent record does), never the lead.
 */
export const heldApplications = pgTable(
  'marketplace_held_applications',
  {
    id: uuid('id').primaryKey(),
    searchUuid: uuid('search_uuid').notNull(),
    applicantKey: text('applicant_key').notNull(),
    /** The SSN's own key, when it is capped: releasing an `ssn_cap` hold releases that SSN's claims. */
    ssnKey: text('ssn_key'),
    firstLeadId: uuid('first_lead_id'),
    reason: text('reason').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent').notNull(),
    /** `[{ "partnerId", "tier" }]`: the partners a new application would have been sent. */
    requests: jsonb('requests').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    answerAt: timestamp('answer_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the operator released the applicant's claim after reviewing this application. */
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('marketplace_held_applications_search_uuid').on(t.searchUuid),
    index('marketplace_held_applications_received_at').on(t.receivedAt),
  ],
)

/**
 * A lead intake answered 503 (its write was not confirmed in time): written even when the lead's row does not
 * exist yet, so a create that commits after it is never claimed, run or taken over by any replica.
 */
export const withdrawnLeads = pgTable('marketplace_withdrawn_leads', {
  leadId: uuid('lead_id').primaryKey(),
  withdrawnAt: timestamp('withdrawn_at', { withTimezone: true, mode: 'date' }).notNull(),
})

/**
 * An application refused as a duplicate: PII-free (the first lead's id and when), counted per day in the
 * operator's report. `shown`: it was answered with the first lead's offers (201); else a 409.
 */
export const duplicateApplications = pgTable(
  'marketplace_duplicate_applications',
  {
    id: uuid('id').primaryKey(),
    firstLeadId: uuid('first_lead_id'),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    shown: boolean('shown').notNull(),
    /**
     * The search a shown duplicate was answered with: the first lead's, read under this uuid of its own with
     * links that redirect but never count (a duplicate's click or impression is never the first lead's).
     * Null for a refused one, and on rows from before migration 0009.
     */
    searchUuid: uuid('search_uuid'),
  },
  (t) => [
    index('marketplace_duplicate_applications_received_at').on(t.receivedAt),
    uniqueIndex('marketplace_duplicate_applications_search_uuid').on(t.searchUuid),
  ],
)
