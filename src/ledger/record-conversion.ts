/**
 * @module A partner's conversion postback, recorded once per partner and `lead_id`: the id is matched by its
 * keyed hash to the lead the partner answered with it (the newest, should a partner reuse ids), only where
 * one of that partner's offers for the lead was displayed (a unique impression) or clicked, and a repeated
 * postback returns the conversion first recorded and changes nothing. The id as posted is never stored: the
 * request's masked id is. `firstSentAt` matches the id by the same rule (one copy of it, `matchesLeadId`).
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq, isNull, min, or, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { LedgerDb } from './ledger-db.ts'
import { clicks, conversions, impressions, partnerRequests } from './schema.ts'
import type { ConversionInput, ConversionRecord, PartnerLeadRef, RecordConversionResult } from './types.ts'

/**
 * The rows holding the partner's `lead_id`: by its keyed hash, and on rows written before ids were hashed (no
 * hash) by the id itself.
 */
function matchesLeadId(ref: PartnerLeadRef, column: { hash: AnyPgColumn; id: AnyPgColumn }): SQL {
  return or(
    eq(column.hash, ref.partnerLeadIdHash),
    and(isNull(column.hash), eq(column.id, ref.partnerLeadId)),
  ) as SQL
}

/**
 * When the partner was first sent a lead it answered with this `lead_id`: the earliest a conversion of it can
 * have happened. The earliest of the matching requests, not the one the conversion will be recorded against,
 * so a partner that reuses ids is never refused a true date. Undefined for an id the partner never answered.
 */
export async function firstSentAt(db: LedgerDb, ref: PartnerLeadRef): Promise<Date | undefined> {
  const [row] = await db
    .select({ sentAt: min(partnerRequests.sentAt) })
    .from(partnerRequests)
    .where(
      and(
        eq(partnerRequests.partnerId, ref.partnerId),
        matchesLeadId(ref, { hash: partnerRequests.partnerLeadIdHash, id: partnerRequests.partnerLeadId }),
      ),
    )
  return row?.sentAt ?? undefined
}

export async function recordConversion(
  db: LedgerDb,
  input: ConversionInput,
): Promise<RecordConversionResult> {
  const matches = (column: { hash: AnyPgColumn; id: AnyPgColumn }) => matchesLeadId(input, column)
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
