/**
 * @module Leases on pending leads, so any live replica can finish a lead whose owner died: the owner renews
 * its leases while it runs the leads, and a lead whose lease has run out is claimed by one replica with
 * `FOR UPDATE SKIP LOCKED` (replicas claiming at the same moment never take the same lead) together with
 * what the ledger recorded of it: its requests, the offers already replied, and its sealed copy.
 */
import { and, asc, eq, inArray, isNull, lt, notExists, or, sql } from 'drizzle-orm'
import { toLeadRow } from './lead-row.ts'
import type { LedgerDb } from './ledger-db.ts'
import { columnName as col } from './recordset.ts'
import { applicantClaims, leadHandoffs, leads, offers, partnerRequests, withdrawnLeads } from './schema.ts'
import type { ClaimedLead, RequestStatus, Tier } from './types.ts'

/** Extends `owner`'s leases on `leadIds` to `until`; returns the ids it still holds (the others were taken). */
export async function renewLeases(
  db: LedgerDb,
  owner: string,
  leadIds: readonly string[],
  until: Date,
): Promise<string[]> {
  if (leadIds.length === 0) return []
  const held = await db
    .update(leads)
    .set({ leaseUntil: until })
    .where(and(eq(leads.owner, owner), inArray(leads.id, [...leadIds]), eq(leads.status, 'pending')))
    .returning({ id: leads.id })
  return held.map((row) => row.id)
}

/**
 * Claims up to `limit` pending leads whose lease ran out before `now` (or that never had one: leads written
 * before leases existed), oldest deadline first, for `owner` until `until`.
 */
export async function claimLeads(
  db: LedgerDb,
  { owner, now, until, limit }: { owner: string; now: Date; until: Date; limit: number },
): Promise<ClaimedLead[]> {
  // One statement each, no transaction: a connection cut mid-transaction is an error event on a checked-out
  // client, and the claim is atomic on its own; once it returns, the leads are this owner's to read.
  const expired = db
    .select({ id: leads.id })
    .from(leads)
    .where(
      and(
        eq(leads.status, 'pending'),
        or(isNull(leads.leaseUntil), lt(leads.leaseUntil, now)),
        // A lead intake answered 503 is never run, whenever its create committed.
        notExists(db.select({ one: sql`1` }).from(withdrawnLeads).where(eq(withdrawnLeads.leadId, leads.id))),
      ),
    )
    .orderBy(asc(leads.deadlineAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  const claimed = await db
    .update(leads)
    .set({ owner, leaseUntil: until })
    .where(inArray(leads.id, expired))
    .returning()
  if (claimed.length === 0) return []
  const ids = claimed.map((row) => row.id)
  const [requests, recorded, handoffs] = await Promise.all([
    db
      .select({
        id: partnerRequests.id,
        leadId: partnerRequests.leadId,
        partnerId: partnerRequests.partnerId,
        tier: partnerRequests.tier,
        sentAt: partnerRequests.sentAt,
        status: partnerRequests.status,
      })
      .from(partnerRequests)
      .where(inArray(partnerRequests.leadId, ids))
      .orderBy(asc(partnerRequests.sentAt), asc(partnerRequests.partnerId)),
    db
      .select({
        id: offers.id,
        leadId: offers.leadId,
        partnerId: offers.partnerId,
        tier: partnerRequests.tier,
        position: offers.position,
        rate: offers.rate,
        productType: offers.productType,
        recommendationScore: offers.recommendationScore,
      })
      .from(offers)
      .innerJoin(partnerRequests, eq(partnerRequests.id, offers.requestId))
      .where(inArray(offers.leadId, ids)),
    db.select().from(leadHandoffs).where(inArray(leadHandoffs.leadId, ids)),
  ])
  const sealed = new Map(handoffs.map((h) => [h.leadId, h.sealed]))
  return claimed.map((row) => ({
    lead: toLeadRow(row),
    requests: requests
      .filter((r) => r.leadId === row.id)
      .map(({ leadId: _, ...r }) => ({ ...r, tier: r.tier as Tier, status: r.status as RequestStatus })),
    offers: recorded
      .filter((o) => o.leadId === row.id)
      .map(({ leadId: _, ...o }) => ({ ...o, tier: o.tier as Tier })),
    sealed: sealed.get(row.id),
  }))
}

/**
 * A lead whose create its caller gave up on: withdrawn for good (`marketplace_withdrawn_leads`, written even
 * when the lead's row is not there yet, so a create that commits later is never inserted, claimed or run);
 * `failed` with `reason` if still pending, its awaited requests errors, its sealed copy deleted, and its
 * applicant's duplicate window released (it was sent to no partner, so it is no application); one statement
 * (data-modifying CTEs), so it is all or nothing.
 */
export async function withdrawLead(db: LedgerDb, leadId: string, at: Date, reason: string): Promise<void> {
  const when = at.toISOString()
  await db.execute(sql`with tombstone as (
      insert into ${withdrawnLeads} (${col(withdrawnLeads.leadId)}, ${col(withdrawnLeads.withdrawnAt)})
      values (${leadId}::uuid, ${when}::timestamptz) on conflict do nothing),
    failed as (
      update ${leads} set ${col(leads.status)} = 'failed', ${col(leads.completedAt)} = ${when}::timestamptz,
        ${col(leads.failureReason)} = ${reason}, ${col(leads.owner)} = null, ${col(leads.leaseUntil)} = null
      where ${col(leads.id)} = ${leadId}::uuid and ${col(leads.status)} = 'pending'
      returning ${col(leads.id)}),
    unanswered as (
      update ${partnerRequests} set ${col(partnerRequests.status)} = 'error', ${col(partnerRequests.reason)} = ${reason},
        ${col(partnerRequests.repliedAt)} = ${when}::timestamptz
      where ${col(partnerRequests.leadId)} in (select id from failed) and ${col(partnerRequests.status)} = 'pending'),
    released as (
      delete from ${applicantClaims} where ${col(applicantClaims.leadId)} in (select id from failed))
    delete from ${leadHandoffs} where ${col(leadHandoffs.leadId)} in (select id from failed)`)
}

/**
 * Leads whose create committed after intake withdrew them (the statement outlived its caller's timeout),
 * once their lease has run out: `failed`, as `withdrawLead` would have left them, so no report counts them
 * pending. Run by the retention sweep (hourly), not by each claim: they were never sent, and the claim skips
 * them whatever this does.
 */
export async function failWithdrawn(db: LedgerDb, now: Date): Promise<number> {
  const failed = await db
    .update(leads)
    .set({ status: 'failed', completedAt: now, failureReason: WITHDRAWN_LATE, owner: null, leaseUntil: null })
    .where(
      and(
        eq(leads.status, 'pending'),
        lt(leads.leaseUntil, now),
        inArray(leads.id, db.select({ id: withdrawnLeads.leadId }).from(withdrawnLeads)),
      ),
    )
    .returning({ id: leads.id })
  if (failed.length === 0) return 0
  // As `withdrawLead` releases them: it was no application, and nobody takes it over.
  const ids = failed.map((row) => row.id)
  await db.delete(applicantClaims).where(inArray(applicantClaims.leadId, ids))
  await db.delete(leadHandoffs).where(inArray(leadHandoffs.leadId, ids))
  return ids.length
}

const WITHDRAWN_LATE =
  'intake answered 503 (the ledger did not confirm the lead in time) and withdrew it; its write committed later and it was sent to no partner'
