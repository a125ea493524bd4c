/**
 * @module Duplicate applications (docs/decisions/0106-duplicate-applicants.md): one PII-free row each (the
 * first lead's id, when, whether its offers were shown, and the uuid a shown one reads them under), and the
 * operator's count of them per UTC day.
 */
import { and, eq, gte, lt, sql } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import type { DuplicatesReport } from './report-types.ts'
import { duplicateApplications, leads } from './schema.ts'
import type { DuplicateApplication } from './types.ts'

export async function recordDuplicate(db: LedgerDb, duplicate: DuplicateApplication): Promise<void> {
  await db
    .insert(duplicateApplications)
    .values({
      ...duplicate,
      firstLeadId: duplicate.firstLeadId ?? null,
      searchUuid: duplicate.searchUuid ?? null,
    })
    .onConflictDoNothing()
}

/** The first application's search uuid behind a shown duplicate's own `searchUuid`. */
export async function firstSearchOf(db: LedgerDb, searchUuid: string): Promise<string | undefined> {
  const [row] = await db
    .select({ searchUuid: leads.searchUuid })
    .from(duplicateApplications)
    .innerJoin(leads, eq(leads.id, duplicateApplications.firstLeadId))
    .where(eq(duplicateApplications.searchUuid, searchUuid))
  return row?.searchUuid
}

const day = sql<string>`to_char(${duplicateApplications.receivedAt} at time zone 'UTC', 'YYYY-MM-DD')`

/** Duplicates received in `[from, to)`, per UTC day that had any. */
export async function queryDuplicatesReport(
  db: LedgerDb,
  range: { from: Date; to: Date },
): Promise<DuplicatesReport> {
  const rows = await db
    .select({
      date: day,
      duplicates: sql<number>`count(*)::int`,
      shown: sql<number>`(count(*) filter (where ${duplicateApplications.shown}))::int`,
    })
    .from(duplicateApplications)
    .where(
      and(gte(duplicateApplications.receivedAt, range.from), lt(duplicateApplications.receivedAt, range.to)),
    )
    .groupBy(day)
    .orderBy(day)
  const daily = rows.map((row) => ({ ...row, refused: row.duplicates - row.shown }))
  const sum = (pick: (row: (typeof daily)[number]) => number) => daily.reduce((n, row) => n + pick(row), 0)
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    duplicates: sum((r) => r.duplicates),
    shown: sum((r) => r.shown),
    refused: sum((r) => r.refused),
    daily,
  }
}
