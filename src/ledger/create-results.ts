/**
 * @module Each create's answer once the write statement (`write-statement.ts`) has committed: its new lead;
 * or the lead already holding its idempotency key (a retry); or the lead holding its applicant's duplicate
 * window. Read after the statement, so only the creates that inserted nothing wait on these reads (a
 * concurrent holder's insert has committed by the time ours saw the conflict).
 */
import { eq, inArray } from 'drizzle-orm'
import { toLeadRow } from './lead-row.ts'
import type { LedgerDb } from './ledger-db.ts'
import { applicantClaims, leads } from './schema.ts'
import type { CreateLeadResult, FirstApplication, LeadRow } from './types.ts'
import type { Op } from './write-ops.ts'
import type { LeadOpAt } from './write-rows.ts'

export async function createResults(
  db: LedgerDb,
  batch: Op[],
  leadOps: LeadOpAt[],
  returned: { inserted: Set<string | null>; claimed: Set<string | null> },
): Promise<Array<CreateLeadResult | Error | undefined>> {
  const { inserted } = returned
  const results: Array<CreateLeadResult | Error | undefined> = batch.map(() => undefined)
  const conflicted = leadOps.filter(({ op }) => !inserted.has(op.lead.id))
  const keys = conflicted.flatMap(({ op }) => (op.lead.idempotencyKey ? [op.lead.idempotencyKey] : []))
  const holders = await settle(() => keyHolders(db, keys))
  const applicants = conflicted.flatMap(({ op }) =>
    op.lead.applicant && !(op.lead.idempotencyKey && holders.value?.has(op.lead.idempotencyKey))
      ? [op.lead.applicant.key]
      : [],
  )
  const windows = await settle(() => windowHolders(db, applicants))
  await releaseUnwritten(db, leadOps, returned)
  for (const { op, index, completedAt } of leadOps) {
    if (inserted.has(op.lead.id)) {
      results[index] = { created: true, lead: newLeadRow(op.lead, completedAt) }
      continue
    }
    const holder = op.lead.idempotencyKey ? holders.value?.get(op.lead.idempotencyKey) : undefined
    const duplicate = op.lead.applicant ? windows.value?.get(op.lead.applicant.key) : undefined
    results[index] = holder
      ? { created: false, lead: holder }
      : duplicate
        ? { created: false, duplicate }
        : (holders.error ??
          windows.error ??
          (op.lead.applicant?.ssn
            ? // Neither its key nor its applicant is held: its SSN reached its cap of dates of birth.
              { created: false, capped: true }
            : new Error(
                `lead ${op.lead.id} could not be inserted and no lead holds its key or its applicant`,
              )))
  }
  return results
}

/** The row of a lead this statement inserted, as the ledger would read it back. */
function newLeadRow(lead: LeadOpAt['op']['lead'], completedAt: Date | null): LeadRow {
  return {
    id: lead.id,
    searchUuid: lead.searchUuid,
    state: lead.state,
    zip: lead.zip,
    bodyHash: lead.bodyHash ?? null,
    status: completedAt ? 'complete' : 'pending',
    createdAt: lead.createdAt,
    deadlineAt: lead.deadlineAt,
    completedAt: completedAt ? new Date(completedAt) : null,
    failureReason: null,
  }
}

async function keyHolders(db: LedgerDb, keys: string[]): Promise<Map<string, LeadRow>> {
  const holders = new Map<string, LeadRow>()
  if (keys.length === 0) return holders
  const rows = await db.select().from(leads).where(inArray(leads.idempotencyKey, keys))
  for (const row of rows) if (row.idempotencyKey) holders.set(row.idempotencyKey, toLeadRow(row))
  return holders
}

/** The lead holding each applicant key's window (undefined when that lead is gone), and when it claimed it. */
async function windowHolders(db: LedgerDb, applicantKeys: string[]): Promise<Map<string, FirstApplication>> {
  const holders = new Map<string, FirstApplication>()
  if (applicantKeys.length === 0) return holders
  const rows = await db
    .select({ claim: applicantClaims, lead: leads })
    .from(applicantClaims)
    .leftJoin(leads, eq(leads.id, applicantClaims.leadId))
    .where(inArray(applicantClaims.applicantKey, [...new Set(applicantKeys)]))
  for (const { claim, lead } of rows) {
    holders.set(claim.applicantKey, {
      lead: lead ? toLeadRow(lead) : undefined,
      claimedAt: claim.claimedAt,
      contactKey: claim.contactKey,
    })
  }
  return holders
}

/**
 * A claim whose lead was not written after all (its idempotency key was taken by a concurrent statement the
 * claim could not see): withdrawn, so the applicant is not held by a lead that does not exist. Best effort;
 * such a claim otherwise only makes that applicant's next application in the window a 409.
 */
async function releaseUnwritten(
  db: LedgerDb,
  leadOps: LeadOpAt[],
  { inserted, claimed }: { inserted: Set<string | null>; claimed: Set<string | null> },
): Promise<void> {
  const unwritten = leadOps.filter(({ op }) => claimed.has(op.lead.id) && !inserted.has(op.lead.id))
  if (unwritten.length === 0) return
  await db
    .delete(applicantClaims)
    .where(
      inArray(
        applicantClaims.leadId,
        unwritten.map(({ op }) => op.lead.id),
      ),
    )
    .catch(() => {})
}

/** A read that may fail: its failure answers only the creates that needed it. */
async function settle<T>(read: () => Promise<T>): Promise<{ value?: T; error?: Error }> {
  try {
    return { value: await read() }
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }
}
