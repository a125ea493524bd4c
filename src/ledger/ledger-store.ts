/**
 * @module The ledger's writes and reads for one marketplace: leads, partner requests and replies, offers,
 * the auction's result and unique clicks. Writes go through group commit (`write-batch.ts`); the state
 * transitions a poll must never see half-done (the last reply of a tier and what follows it) are one
 * operation, so they always land in the same transaction.
 */
import { and, asc, eq } from 'drizzle-orm'
import { withLedgerErrors } from './ledger-error.ts'
import type { LedgerDb } from './open-ledger.ts'
import { type PartnerReportQuery, queryPartnerReport } from './partner-report.ts'
import { recordConversion } from './record-conversion.ts'
import { clicks, impressions, leads, offers, partnerRequests } from './schema.ts'
import { querySuppressionList, type SuppressionQuery } from './suppression-list.ts'
import type {
  ConversionInput,
  CreateLeadResult,
  NewLead,
  PartnerReport,
  RecordConversionResult,
  ReplyRecord,
  SearchSnapshot,
  SentRequest,
  StoredOffer,
  SuppressionList,
  Tier,
  TierClose,
} from './types.ts'
import { createWriteBatch, toLeadRow } from './write-batch.ts'

export interface Ledger {
  readonly driver: 'pglite' | 'postgres'
  /** The drizzle handle, for tests that inspect every table. */
  readonly db: LedgerDb
  /**
   * Inserts the lead and its first requests, or, when its idempotency key is already taken, returns the
   * lead that holds it (`created: false`) and writes nothing.
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
  /** True for the first impression of this offer (the widget rendered it); later ones change nothing. */
  recordImpression(impression: {
    offerId: string
    leadId: string
    partnerId: string
    impressedAt: Date
  }): Promise<boolean>
  /** A partner's conversion postback, once per partner and partner `lead_id`. */
  recordConversion(conversion: ConversionInput): Promise<RecordConversionResult>
  /** The partner's leads sent in the range that did not click its offer (docs/partner-interface.md: no remarketing). */
  suppressionList(query: SuppressionQuery): Promise<SuppressionList>
  close(): Promise<void>
}

export function createLedgerStore(
  db: LedgerDb,
  options: { driver: Ledger['driver']; close: () => Promise<void> },
): Ledger {
  const writes = createWriteBatch(db)
  // No caller ever sees (or logs) a query's parameters: every failure leaves as a LedgerError.
  return withLedgerErrors<Ledger>({
    driver: options.driver,
    db,
    createLead: writes.createLead,
    recordReply: writes.recordReply,
    closeTier: writes.closeTier,

    async getSearch(searchUuid) {
      const [lead] = await db.select().from(leads).where(eq(leads.searchUuid, searchUuid))
      if (lead === undefined) return undefined
      const row = toLeadRow(lead)
      if (row.status === 'pending') {
        const pending = await db
          .select({ partnerId: partnerRequests.partnerId, tier: partnerRequests.tier })
          .from(partnerRequests)
          .where(and(eq(partnerRequests.leadId, row.id), eq(partnerRequests.status, 'pending')))
          .orderBy(asc(partnerRequests.sentAt), asc(partnerRequests.partnerId))
        return {
          lead: row,
          pending: pending.map((p) => ({ partnerId: p.partnerId, tier: p.tier as Tier })),
          displayed: [],
        }
      }
      const displayed = await db
        .select()
        .from(offers)
        .where(and(eq(offers.leadId, row.id), eq(offers.displayed, true)))
        .orderBy(asc(offers.rank))
      return { lead: row, pending: [], displayed }
    },

    async findOffer(offerId) {
      const [offer] = await db.select().from(offers).where(eq(offers.id, offerId))
      return offer
    },

    async recordClick(click) {
      const inserted = await db
        .insert(clicks)
        .values(click)
        .onConflictDoNothing()
        .returning({ offerId: clicks.offerId })
      return inserted.length > 0
    },

    partnerReport: (query) => queryPartnerReport(db, query),

    async recordImpression(impression) {
      const inserted = await db
        .insert(impressions)
        .values(impression)
        .onConflictDoNothing()
        .returning({ offerId: impressions.offerId })
      return inserted.length > 0
    },

    recordConversion: (conversion) => recordConversion(db, conversion),
    suppressionList: (query) => querySuppressionList(db, query),

    async close() {
      await writes.drain()
      await options.close()
    },
  })
}
