/**
 * @module The ledger's writes and reads for one marketplace: leads, partner requests and replies, offers,
 * the auction's result and unique clicks. The state transitions a poll must never see half-done (the
 * last reply of a tier and what follows it) are written in one transaction.
 */
import { and, asc, eq } from 'drizzle-orm'
import type { LedgerDb } from './open-ledger.ts'
import { type PartnerReportQuery, queryPartnerReport } from './partner-report.ts'
import { clicks, leads, offers, partnerRequests } from './schema.ts'
import type {
  CreateLeadResult,
  LeadRow,
  NewLead,
  PartnerReport,
  ReplyRecord,
  SearchSnapshot,
  SentRequest,
  StoredOffer,
  Tier,
  TierClose,
} from './types.ts'

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
  close(): Promise<void>
}

type Executor = Pick<LedgerDb, 'insert' | 'update'>

export function createLedgerStore(
  db: LedgerDb,
  options: { driver: Ledger['driver']; close: () => Promise<void> },
): Ledger {
  async function writeReply(executor: Executor, reply: ReplyRecord): Promise<void> {
    // Offers first: a request never reads `approved` without its offers, even outside a transaction.
    if (reply.offers.length > 0) {
      await executor.insert(offers).values(
        reply.offers.map((offer) => ({
          id: offer.id,
          leadId: reply.leadId,
          requestId: reply.requestId,
          partnerId: reply.partnerId,
          position: offer.position,
          rate: offer.rate,
          productType: offer.productType,
          recommendationScore: offer.recommendationScore,
          clickUrl: offer.clickUrl,
          name: offer.name ?? null,
          displayName: offer.displayName ?? null,
          offerDetails: offer.offerDetails ?? null,
          logoSrc: offer.logoSrc ?? null,
          createdAt: reply.repliedAt,
        })),
      )
    }
    await executor
      .update(partnerRequests)
      .set({
        status: reply.status,
        reason: reply.reason ?? null,
        httpStatus: reply.httpStatus ?? null,
        partnerLeadId: reply.partnerLeadId ?? null,
        latencyMs: Math.round(reply.latencyMs),
        offerCount: reply.offers.length,
        repliedAt: reply.repliedAt,
      })
      .where(eq(partnerRequests.id, reply.requestId))
  }

  function requestRows(leadId: string, requests: SentRequest[]) {
    return requests.map((request) => ({
      id: request.id,
      leadId,
      partnerId: request.partnerId,
      tier: request.tier,
      sentAt: request.sentAt,
      status: 'pending',
    }))
  }

  return {
    driver: options.driver,
    db,

    createLead(lead, requests) {
      return db.transaction(async (tx) => {
        const complete = requests.length === 0
        const inserted = await tx
          .insert(leads)
          .values({
            id: lead.id,
            searchUuid: lead.searchUuid,
            state: lead.state,
            zip: lead.zip,
            idempotencyKey: lead.idempotencyKey ?? null,
            bodyHash: lead.bodyHash ?? null,
            status: complete ? 'complete' : 'pending',
            createdAt: lead.createdAt,
            deadlineAt: lead.deadlineAt,
            completedAt: complete ? lead.createdAt : null,
          })
          .onConflictDoNothing()
          .returning()
        const row = inserted[0]
        if (row === undefined) {
          if (lead.idempotencyKey === undefined) throw new Error(`lead ${lead.id} already exists`)
          const [existing] = await tx
            .select()
            .from(leads)
            .where(eq(leads.idempotencyKey, lead.idempotencyKey))
          if (existing === undefined) throw new Error('idempotency key conflict without a holder')
          return { created: false, lead: toLeadRow(existing) } satisfies CreateLeadResult
        }
        if (!complete) await tx.insert(partnerRequests).values(requestRows(lead.id, requests))
        return { created: true, lead: toLeadRow(row) } satisfies CreateLeadResult
      })
    },

    recordReply: (reply) => writeReply(db, reply),

    closeTier(replies, next, leadId) {
      return db.transaction(async (tx) => {
        for (const reply of replies) await writeReply(tx, reply)
        if (next.kind === 'next-tier') {
          if (next.requests.length > 0)
            await tx.insert(partnerRequests).values(requestRows(leadId, next.requests))
          return
        }
        for (const winner of next.winners) {
          await tx
            .update(offers)
            .set({ displayed: true, rank: winner.rank })
            .where(and(eq(offers.id, winner.offerId), eq(offers.leadId, leadId)))
        }
        await tx
          .update(leads)
          .set({ status: 'complete', completedAt: next.completedAt })
          .where(eq(leads.id, leadId))
      })
    },

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

    close: options.close,
  }
}

function toLeadRow(row: typeof leads.$inferSelect): LeadRow {
  return { ...row, status: row.status === 'complete' ? 'complete' : 'pending' }
}
