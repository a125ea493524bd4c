/**
 * @module The ledger's writes and reads for one marketplace: leads, partner requests and replies, offers,
 * the auction's result and unique clicks. Writes go through group commit (`write-batch.ts`); the state
 * transitions a poll must never see half-done (the last reply of a tier and what follows it) are one
 * operation, so they always land in the same transaction.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Timers } from '../http/timers.ts'
import { type ApplicantCalls, applicantCalls } from './applicant-calls.ts'
import { type ConsentRecordQuery, readConsentRecord } from './consent-records.ts'
import { firstSearchOf } from './duplicate-applications.ts'
import { readHeldSearch } from './held-applications.ts'
import { claimLeads, renewLeases, withdrawLead } from './lead-leases.ts'
import { toLeadRow } from './lead-row.ts'
import type { LedgerDb } from './ledger-db.ts'
import { withLedgerErrors, withTimeout } from './ledger-error.ts'
import { type PartnerReportQuery, queryPartnerReport } from './partner-report.ts'
import { type PlacementsQuery, queryPlacementsReport } from './placements-report.ts'
import { firstSentAt, recordConversion } from './record-conversion.ts'
import type { PartnerReport, PlacementsReport, SuppressionList } from './report-types.ts'
import { clicks, impressions, leads, offers, partnerRequests } from './schema.ts'
import { querySuppressionList, type SuppressionQuery } from './suppression-list.ts'
import type {
  ClaimedLead,
  ConsentRecord,
  ConversionInput,
  CreateLeadResult,
  NewLead,
  PartnerLeadRef,
  RecordConversionResult,
  ReplyRecord,
  RequestProgress,
  SearchEvent,
  SearchSnapshot,
  SentRequest,
  StoredOffer,
  Tier,
  TierClose,
} from './types.ts'
import { createWriteBatch } from './write-batch.ts'

export interface Ledger extends ApplicantCalls {
  readonly driver: 'pglite' | 'postgres'
  /** The drizzle handle, for tests that inspect every table. */
  readonly db: LedgerDb
  /** Bound on every database call; past it the call fails with a transient `LedgerError`. */
  readonly timeoutMs: number
  /**
   * Inserts the lead, its first requests and its consent record; or, when its idempotency key is already
   * taken, returns the lead that holds it (`created: false`), or, when its applicant's duplicate window is
   * held by another lead, that lead (`duplicate`), and writes nothing.
   */
  createLead(lead: NewLead, requests: SentRequest[]): Promise<CreateLeadResult>
  /** A reply (or timeout) that does not end its tier. */
  recordReply(reply: ReplyRecord): Promise<void>
  /** The tier's remaining replies plus what follows them: the next tier's requests, or the auction's result. */
  closeTier(replies: ReplyRecord[], next: TierClose, leadId: string): Promise<void>
  getSearch(searchUuid: string): Promise<SearchSnapshot | undefined>
  findOffer(offerId: string): Promise<StoredOffer | undefined>
  /** True for the first click of this offer; later clicks change nothing. */
  recordClick(click: {
    offerId: string
    leadId: string
    partnerId: string
    clickedAt: Date
  }): Promise<boolean>
  partnerReport(query: PartnerReportQuery): Promise<PartnerReport>
  /** One round trip (`select 1`) under the timeout: `/readyz`. Throws `LedgerError` when it fails. */
  ping(): Promise<void>
  /**
   * A lead whose create the caller gave up on (told 503, "sent to no partner") but which may have been
   * written after all: if it is still pending, it becomes `failed` with `reason`, its requests errors, and
   * its sealed copy is deleted, so no replica ever takes it over and sends it.
   */
  withdrawLead(leadId: string, at: Date, reason: string): Promise<void>
  /** Extends `owner`'s leases on these pending leads to `until`; returns the ids it still holds. */
  renewLeases(owner: string, leadIds: readonly string[], until: Date): Promise<string[]>
  /**
   * Claims for `owner` up to `limit` pending leads whose lease ran out before `now` (one replica each, `FOR
   * UPDATE SKIP LOCKED`), with their requests, recorded offers and sealed copy.
   */
  claimLeads(claim: { owner: string; now: Date; until: Date; limit: number }): Promise<ClaimedLead[]>
  /** True for the first impression of this offer (the widget rendered it); later ones change nothing. */
  recordImpression(impression: {
    offerId: string
    leadId: string
    partnerId: string
    impressedAt: Date
  }): Promise<boolean>
  /** A partner's conversion postback, once per partner and partner `lead_id`. */
  recordConversion(conversion: ConversionInput): Promise<RecordConversionResult>
  /** When the partner was first sent a lead it answered with this `lead_id` (undefined: never). */
  firstSentAt(ref: PartnerLeadRef): Promise<Date | undefined>
  /** The partner's leads sent in the range that did not click its offer (docs/partner-interface.md: no remarketing). */
  suppressionList(query: SuppressionQuery): Promise<SuppressionList>
  /** A lead's consent record, by lead id (the operator) or by the request a partner was sent (that partner). */
  consentRecord(query: ConsentRecordQuery): Promise<ConsentRecord | undefined>
  /**
   * An insurance search's events (docs/placements.md), queued on the write batch: they share a flush with
   * whatever else is queued, and a repeat changes nothing.
   */
  recordSearchEvents(events: readonly SearchEvent[]): Promise<void>
  /** The publisher's report per UTC day and placement. */
  placementsReport(query: PlacementsQuery): Promise<PlacementsReport>
  close(): Promise<void>
}

export function createLedgerStore(
  db: LedgerDb,
  options: { driver: Ledger['driver']; close: () => Promise<void>; timers: Timers; timeoutMs: number },
): Ledger {
  const { timers, timeoutMs } = options
  const writes = createWriteBatch(db, { timers, timeoutMs })
  const guard = <T>(operation: string, run: () => Promise<T>) =>
    withTimeout(timers, timeoutMs, operation, run)
  // No caller ever sees (or logs) a query's parameters: every failure leaves as a LedgerError.
  return withLedgerErrors<Ledger>({
    driver: options.driver,
    db,
    timeoutMs,
    createLead: writes.createLead,
    recordReply: writes.recordReply,
    closeTier: writes.closeTier,

    getSearch: (searchUuid) => guard('getSearch', () => findSearch(db, searchUuid)),
    findOffer: (offerId) =>
      guard('findOffer', async () => {
        const [offer] = await db.select().from(offers).where(eq(offers.id, offerId))
        return offer
      }),
    recordClick: (click) =>
      guard('recordClick', async () => {
        const inserted = await db
          .insert(clicks)
          .values(click)
          .onConflictDoNothing()
          .returning({ offerId: clicks.offerId })
        return inserted.length > 0
      }),
    partnerReport: (query) => guard('partnerReport', () => queryPartnerReport(db, query)),
    ping: () =>
      guard('ping', async () => {
        await db.execute(sql`select 1`)
      }),
    withdrawLead: (leadId, at, reason) => guard('withdrawLead', () => withdrawLead(db, leadId, at, reason)),
    renewLeases: (owner, leadIds, until) =>
      guard('renewLeases', () => renewLeases(db, owner, leadIds, until)),
    claimLeads: (claim) => guard('claimLeads', () => claimLeads(db, claim)),

    recordImpression: (impression) =>
      guard('recordImpression', async () => {
        const inserted = await db
          .insert(impressions)
          .values(impression)
          .onConflictDoNothing()
          .returning({ offerId: impressions.offerId })
        return inserted.length > 0
      }),
    recordConversion: (conversion) => guard('recordConversion', () => recordConversion(db, conversion)),
    firstSentAt: (ref) => guard('firstSentAt', () => firstSentAt(db, ref)),
    suppressionList: (query) => guard('suppressionList', () => querySuppressionList(db, query)),
    consentRecord: (query) => guard('consentRecord', () => readConsentRecord(db, query)),
    ...applicantCalls(db, guard),
    recordSearchEvents: writes.recordSearchEvents,
    placementsReport: (query) => guard('placementsReport', () => queryPlacementsReport(db, query)),

    async close() {
      await writes.drain()
      await options.close()
    },
  })
}

/**
 * A search by its uuid: a lead's; else an application held for review; else a shown duplicate's view of
 * the applicant's first search (under its own uuid, links uncounted).
 */
async function findSearch(db: LedgerDb, searchUuid: string): Promise<SearchSnapshot | undefined> {
  const found = (await readSearch(db, searchUuid)) ?? (await readHeldSearch(db, searchUuid))
  if (found) return found
  const first = await firstSearchOf(db, searchUuid)
  const snapshot = first === undefined ? undefined : await readSearch(db, first)
  if (snapshot === undefined) return undefined
  return {
    ...snapshot,
    lead: { ...snapshot.lead, searchUuid },
    duplicate: { firstAppliedAt: snapshot.lead.createdAt },
  }
}

/**
 * One search: its lead and its requests read in ONE statement, so from one snapshot. Read in two, a poll
 * could see the lead still pending, then its requests answered by a settle that committed in between:
 * nothing pending and nothing shown, a table the widget takes for final (seen in CI; the ledger's test races
 * the two). The shown offers are read after, only for a lead that has settled (the settle marked them in
 * the same statement that settled it).
 * One statement rather than a transaction: a checked-out connection between statements is what the ledger
 * never holds (writes are one statement too, write-statement.ts).
 */
async function readSearch(db: LedgerDb, searchUuid: string): Promise<SearchSnapshot | undefined> {
  // Every request, not only the pending ones: the rate table's progress counts the partners answered.
  const joined = await db
    .select({
      lead: leads,
      request: {
        partnerId: partnerRequests.partnerId,
        tier: partnerRequests.tier,
        status: partnerRequests.status,
        sentAt: partnerRequests.sentAt,
        offerCount: partnerRequests.offerCount,
      },
    })
    .from(leads)
    .leftJoin(partnerRequests, eq(partnerRequests.leadId, leads.id))
    .where(eq(leads.searchUuid, searchUuid))
    .orderBy(asc(partnerRequests.sentAt), asc(partnerRequests.partnerId))
  const lead = joined[0]?.lead
  if (lead === undefined) return undefined
  const row = toLeadRow(lead)
  const rows = joined.flatMap(({ request }) => (request === null ? [] : [request]))
  const requests = rows.map((r) => ({
    ...r,
    tier: r.tier as Tier,
    status: r.status as RequestProgress['status'],
  }))
  if (row.status === 'pending') {
    return {
      lead: row,
      pending: requests
        .filter((r) => r.status === 'pending')
        .map((r) => ({ partnerId: r.partnerId, tier: r.tier })),
      requests,
      displayed: [],
    }
  }
  const displayed = await db
    .select()
    .from(offers)
    .where(and(eq(offers.leadId, row.id), eq(offers.displayed, true)))
    .orderBy(asc(offers.rank))
  return { lead: row, pending: [], requests, displayed }
}
