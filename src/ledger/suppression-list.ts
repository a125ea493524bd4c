/**
 * @module docs/partner-interface.md: "The partner must not remarket to any lead that does not click its offer." The leads
 * sent to a partner in `[from, to)` that have not clicked any of its offers (to this day), oldest first,
 * by the partner's own `lead_id`, so the partner can suppress them.
 */
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import type { SuppressionList } from './report-types.ts'
import { clicks, partnerRequests } from './schema.ts'

export interface SuppressionQuery {
  partnerId: string
  from: Date
  to: Date
  /** Most leads listed; `truncated` says when there were more. */
  limit?: number
}

export async function querySuppressionList(db: LedgerDb, query: SuppressionQuery): Promise<SuppressionList> {
  const limit = query.limit ?? 100_000
  const rows = await db
    .select({
      partnerLeadId: partnerRequests.partnerLeadId,
      leadId: partnerRequests.leadId,
      sentAt: partnerRequests.sentAt,
    })
    .from(partnerRequests)
    .where(
      and(
        eq(partnerRequests.partnerId, query.partnerId),
        gte(partnerRequests.sentAt, query.from),
        lt(partnerRequests.sentAt, query.to),
        sql`not exists (select 1 from ${clicks} where ${clicks.leadId} = ${partnerRequests.leadId}
          and ${clicks.partnerId} = ${partnerRequests.partnerId})`,
      ),
    )
    .orderBy(asc(partnerRequests.sentAt), asc(partnerRequests.id))
    .limit(limit + 1)
  return {
    partnerId: query.partnerId,
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    leads: rows.slice(0, limit).map((row) => ({
      partnerLeadId: row.partnerLeadId,
      leadId: row.leadId,
      sentAt: row.sentAt.toISOString(),
    })),
    truncated: rows.length > limit,
  }
}
