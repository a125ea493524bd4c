/**
 * @module A partner's conversion postback, recorded once per partner and `lead_id`: the id is matched to
 * the lead the partner answered with it (the newest, should a partner reuse ids), and a repeated postback
 * returns the conversion first recorded and changes nothing.
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type { LedgerDb } from './open-ledger.ts'
import { conversions, partnerRequests } from './schema.ts'
import type { ConversionInput, ConversionRecord, RecordConversionResult } from './types.ts'

export async function recordConversion(
  db: LedgerDb,
  input: ConversionInput,
): Promise<RecordConversionResult> {
  const byPartnerLead = and(
    eq(conversions.partnerId, input.partnerId),
    eq(conversions.partnerLeadId, input.partnerLeadId),
  )
  const [existing] = await db.select().from(conversions).where(byPartnerLead)
  if (existing) return { kind: 'duplicate', conversion: toRecord(existing) }
  const [request] = await db
    .select({ id: partnerRequests.id, leadId: partnerRequests.leadId })
    .from(partnerRequests)
    .where(
      and(
        eq(partnerRequests.partnerId, input.partnerId),
        eq(partnerRequests.partnerLeadId, input.partnerLeadId),
      ),
    )
    .orderBy(desc(partnerRequests.sentAt))
    .limit(1)
  if (request === undefined) return { kind: 'unknown-lead' }
  const row = {
    id: randomUUID(),
    partnerId: input.partnerId,
    partnerLeadId: input.partnerLeadId,
    leadId: request.leadId,
    requestId: request.id,
    convertedAt: input.convertedAt,
    receivedAt: input.receivedAt,
    amount: input.amount ?? null,
  }
  const inserted = await db.insert(conversions).values(row).onConflictDoNothing().returning()
  if (inserted[0]) return { kind: 'created', conversion: toRecord(inserted[0]) }
  // Two postbacks for one lead at once: the other one's insert won.
  const [winner] = await db.select().from(conversions).where(byPartnerLead)
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
    amount: row.amount,
  }
}
