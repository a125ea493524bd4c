/**
 * @module A partner's conversion postback, recorded once per partner and `lead_id`: the id is matched by its
 * keyed hash to the lead the partner answered with it (the newest, should a partner reuse ids), only where
 * one of that partner's offers for the lead was displayed (a unique impression) or clicked, and a repeated
 * postback returns the conversion first recorded and changes nothing. The id as posted is never stored: the
 * request's masked id is.
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { LedgerDb } from './ledger-db.ts'
import { clicks, conversions, impressions, partnerRequests } from './schema.ts'
import type { ConversionInput, ConversionRecord, RecordConversionResult } from './types.ts'

export async function recordConversion(
  db: LedgerDb,
  input: ConversionInput,
): Promise<RecordConversionResult> {
  // Rows written before ids were hashed carry no hash: those still match on the id itself.
  const matches = (column: { hash: AnyPgColumn; id: AnyPgColumn }) =>
    or(
      eq(column.hash, input.partnerLeadIdHash),
      and(isNull(column.hash), eq(column.id, input.partnerLeadId)),
    ) as SQL
  const byPartnerLead = and(
    eq(conversions.partnerId, input.partnerId),
    matches({ hash: conversions.partnerLeadIdHash, id: conversions.partnerLeadId }),
  )
  const [existing] = await db.select().from(conversions).where(byPartnerLead).limit(1)
  if (existing) return { kind: 'duplicate', conversion: toRecord(existing) }
  // Qualified by hand: drizzle leaves columns of a one-table select unqualified, which the subqueries would
  // read as their own.
  const r = sql.raw('"marketplace_partner_requests"')
  const shown = sql<boolean>`(exists (select 1 from ${impressions} as i where i.lead_id = ${r}.lead_id and i.partner_id = ${r}.partner_id)
    or exists (select 1 from ${clicks} as c where c.lead_id = ${r}.lead_id and c.partner_id = ${r}.partner_id))`
  const [request] = await db
    .select({
      id: partnerRequests.id,
      leadId: partnerRequests.leadId,
      partnerLeadId: partnerRequests.partnerLeadId,
      shown,
    })
    .from(partnerRequests)
    .where(
      and(
        eq(partnerRequests.partnerId, input.partnerId),
        matches({ hash: partnerRequests.partnerLeadIdHash, id: partnerRequests.partnerLeadId }),
      ),
    )
    // The newest lead the partner's offer was shown to, else the newest at all (then refused).
    .orderBy(desc(shown), desc(partnerRequests.sentAt))
    .limit(1)
  if (request === undefined) return { kind: 'unknown-lead' }
  if (!request.shown) return { kind: 'not-shown' }
  const row = {
    id: randomUUID(),
    partnerId: input.partnerId,
    partnerLeadId: request.partnerLeadId ?? '',
    partnerLeadIdHash: input.partnerLeadIdHash,
    leadId: request.leadId,
    requestId: request.id,
    convertedAt: input.convertedAt,
    receivedAt: input.receivedAt,
    amountCents: input.amountCents ?? null,
  }
  const inserted = await db.insert(conversions).values(row).onConflictDoNothing().returning()
  if (inserted[0]) return { kind: 'created', conversion: toRecord(inserted[0]) }
  // Two postbacks for one lead at once: the other one's insert won.
  const [winner] = await db.select().from(conversions).where(byPartnerLead).limit(1)
  if (winner === undefined) throw new Error('conversion insert conflicted but no conversion holds its key')
  return { kind: 'duplicate', conversion: toRecord(winner) }
}

function toRecord(row: typeof conversions.$inferSelect): ConversionRecord {
  return {
    id: row.id,
    partnerId: row.partnerId,
    partnerLeadId: row.partnerLeadId,
    leadId: row.leadId,
    convertedAt: row.convertedAt,
    receivedAt: row.receivedAt,
    amountCents: row.amountCents,
  }
}
