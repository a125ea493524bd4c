/**
 * @module A `leads` row as the ledger hands it out (`LeadRow`): the status narrowed to the three it can hold.
 */
import type { leads } from './schema.ts'
import type { LeadRow } from './types.ts'

export function toLeadRow(row: typeof leads.$inferSelect): LeadRow {
  return {
    id: row.id,
    searchUuid: row.searchUuid,
    state: row.state,
    zip: row.zip,
    bodyHash: row.bodyHash,
    status: row.status === 'complete' || row.status === 'failed' ? row.status : 'pending',
    createdAt: row.createdAt,
    deadlineAt: row.deadlineAt,
    completedAt: row.completedAt,
    failureReason: row.failureReason,
  }
}
