/**
 * @module Applications held for review (docs/decisions/0106-duplicate-applicants.md): written when another
 * contact applies with an applicant's SSN and date of birth, or one SSN passes its cap of dates of birth;
 * read back by their search uuid as a search (`LeadRow.status` `held`), listed for the operator, and released:
 * the release deletes the live claim on that applicant, so the person's next application is sent.
 */
import { and, desc, eq, gte, isNull, lt, or } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import { applicantClaims, heldApplications, withdrawnLeads } from './schema.ts'
import type { HeldApplication, HeldApplicationRow, HeldReason, SearchSnapshot } from './types.ts'

/**
 * Deletes held applications received before `before` (they keep a network address and user agent, as consent
 * records do, and go with them) and withdrawal tombstones older than `tombstonesBefore` (a late create commits
 * within seconds of its caller giving up; the keeper fails any row that landed long before).
 */
export async function purgeHeldApplications(
  db: LedgerDb,
  { before, tombstonesBefore }: { before: Date; tombstonesBefore: Date },
): Promise<number> {
  await db.delete(withdrawnLeads).where(lt(withdrawnLeads.withdrawnAt, tombstonesBefore))
  const deleted = await db
    .delete(heldApplications)
    .where(lt(heldApplications.receivedAt, before))
    .returning({ id: heldApplications.id })
  return deleted.length
}

export async function recordHeldApplication(db: LedgerDb, held: HeldApplication): Promise<void> {
  await db
    .insert(heldApplications)
    .values({ ...held, firstLeadId: held.firstLeadId ?? null, ssnKey: held.ssnKey ?? null })
    .onConflictDoNothing()
}

/** The held application behind `searchUuid` as its search (`heldSnapshot`). */
export async function readHeldSearch(db: LedgerDb, searchUuid: string): Promise<SearchSnapshot | undefined> {
  const [row] = await db.select().from(heldApplications).where(eq(heldApplications.searchUuid, searchUuid))
  if (row === undefined) return undefined
  return heldSnapshot({ ...row, requests: row.requests as HeldApplication['requests'] })
}

/**
 * A held application as a search (`LeadRow.status` `held`): the partners it would have been sent, awaited
 * until `answerAt`, and no offer. Intake answers with it; polls read it back the same.
 */
export function heldSnapshot(
  held: Pick<HeldApplication, 'id' | 'searchUuid' | 'state' | 'zip' | 'requests' | 'receivedAt' | 'answerAt'>,
): SearchSnapshot {
  const requests = held.requests.map(({ partnerId, tier }) => ({
    partnerId,
    tier,
    status: 'pending' as const,
    sentAt: held.receivedAt,
    offerCount: 0,
  }))
  return {
    lead: {
      id: held.id,
      searchUuid: held.searchUuid,
      state: held.state,
      zip: held.zip,
      bodyHash: null,
      status: 'held',
      createdAt: held.receivedAt,
      deadlineAt: held.answerAt,
      completedAt: null,
      failureReason: null,
    },
    pending: held.requests.map(({ partnerId, tier }) => ({ partnerId, tier })),
    requests,
    displayed: [],
  }
}

/** Held applications received in `[from, to)`, newest first, at most `limit`. */
export async function listHeldApplications(
  db: LedgerDb,
  query: { from: Date; to: Date; limit: number },
): Promise<HeldApplicationRow[]> {
  const rows = await db
    .select()
    .from(heldApplications)
    .where(and(gte(heldApplications.receivedAt, query.from), lt(heldApplications.receivedAt, query.to)))
    .orderBy(desc(heldApplications.receivedAt))
    .limit(query.limit)
  return rows.map(({ applicantKey: _, ssnKey: __, requests: ___, ...row }) => ({
    ...row,
    firstLeadId: row.firstLeadId ?? undefined,
    reason: row.reason as HeldReason,
  }))
}

/**
 * Releases the claim on the held application's applicant: the next application of that SSN and date of
 * birth is sent to partners. `false` when there is no such held application or it was released already.
 */
export async function releaseHeldApplication(db: LedgerDb, id: string, at: Date): Promise<boolean> {
  const [released] = await db
    .update(heldApplications)
    .set({ releasedAt: at })
    .where(and(eq(heldApplications.id, id), isNull(heldApplications.releasedAt)))
    .returning({ applicantKey: heldApplications.applicantKey, ssnKey: heldApplications.ssnKey })
  if (released === undefined) return false
  // An `ssn_cap` hold: the operator judged the SSN's applications one person's, so its claims go too.
  await db
    .delete(applicantClaims)
    .where(
      released.ssnKey === null
        ? eq(applicantClaims.applicantKey, released.applicantKey)
        : or(
            eq(applicantClaims.applicantKey, released.applicantKey),
            eq(applicantClaims.ssnKey, released.ssnKey),
          ),
    )
  return true
}
