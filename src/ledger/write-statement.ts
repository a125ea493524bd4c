/**
 * @module The one statement a flush of the write batch runs: a data-modifying CTE per table touched, then
 * each create's answer (its new lead, or the lead already holding its idempotency key).
 */
import { inArray, type SQL, sql } from 'drizzle-orm'
import { toLeadRow } from './lead-row.ts'
import type { LedgerDb } from './ledger-db.ts'
import { columnName, recordset } from './recordset.ts'
import { leadHandoffs, leads, offers, partnerRequests } from './schema.ts'
import type { CreateLeadResult, LeadRow } from './types.ts'
import type { Op } from './write-ops.ts'
import {
  batchRows,
  HANDOFF,
  LEAD,
  type LeadOpAt,
  OFFER,
  REPLY,
  REQUEST,
  type Row,
  SETTLE,
  WINNER,
} from './write-rows.ts'

/**
 * Writes a batch as ONE statement: data-modifying CTEs, so one round trip, one parse and plan, and no
 * BEGIN/COMMIT (a statement is atomic on its own). The CTEs all see the snapshot taken before the
 * statement, so none may update a row another one inserts: a reply to a request created in the same batch
 * (a fast partner answering before its lead's flush) is folded into that request's insert, and so is the
 * settle of a lead created in the same batch. Requests are inserted only for leads whose insert did not
 * hit a taken idempotency key.
 */
export async function writeAll(
  db: LedgerDb,
  batch: Op[],
): Promise<Array<CreateLeadResult | Error | undefined>> {
  const rows = batchRows(batch)
  const ctes = [
    newLeads(rows.leads),
    newLeadRequests(rows.leadRequests),
    newHandoffs(rows.handoffs),
    nextTierRequests(rows.nextTierRequests),
    newOffers(rows.offers),
    replied(rows.replyUpdates),
    earlierWinners(rows.earlierWinners),
    settled(rows.settledUpdates),
  ].filter((cte) => cte !== undefined)
  if (ctes.length === 0) return batch.map(() => undefined)
  const main = rows.leads.length > 0 ? sql`select id from new_leads` : sql`select null as id`
  const written = await db.execute(sql`with ${sql.join(ctes, sql`, `)} ${main}`)
  const insertedIds = new Set(rowsOf<{ id: string | null }>(written).map((row) => row.id))
  return createResults(db, batch, rows.leadOps, insertedIds)
}

/** A taken idempotency key (or uuid) inserts nothing; the lead holding the key is looked up afterwards. */
function newLeads(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`new_leads as (
      insert into ${leads} (${LEAD.names})
      select * from ${recordset(rows, LEAD.definition)}
      on conflict do nothing
      returning id)`
}

function newLeadRequests(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`new_lead_requests as (
      insert into ${partnerRequests} (${REQUEST.names})
      select ${REQUEST.names} from ${recordset(rows, REQUEST.definition)}
      where v.${columnName(partnerRequests.leadId)} in (select id from new_leads))`
}

/** A lead's sealed copy, only for a lead this statement inserted (never beside another's key). */
function newHandoffs(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`new_handoffs as (
      insert into ${leadHandoffs} (${HANDOFF.names})
      select ${HANDOFF.names} from ${recordset(rows, HANDOFF.definition)}
      where v.${columnName(leadHandoffs.leadId)} in (select id from new_leads))`
}

function nextTierRequests(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`next_tier_requests as (
      insert into ${partnerRequests} (${REQUEST.names})
      select ${REQUEST.names} from ${recordset(rows, REQUEST.definition)}
      on conflict do nothing)`
}

function newOffers(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`new_offers as (
      insert into ${offers} (${OFFER.names})
      select * from ${recordset(rows, OFFER.definition)}
      on conflict do nothing)`
}

/** Replies to requests of earlier batches; a request already answered (or timed out) keeps its answer. */
function replied(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  const status = columnName(partnerRequests.status)
  return sql`replied as (
      update ${partnerRequests} as r set ${REPLY.assignments}
      from ${recordset(rows, REPLY.definition)}
      where r.${columnName(partnerRequests.id)} = v.${columnName(partnerRequests.id)} and r.${status} = 'pending')`
}

function earlierWinners(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`winners as (
      update ${offers} as o set ${columnName(offers.displayed)} = true, ${WINNER.assignments}
      from ${recordset(rows, WINNER.definition)}
      where o.${columnName(offers.id)} = v.${columnName(offers.id)})`
}

/** Settles leads still pending, and deletes their sealed copy: a settled lead is never taken over. */
function settled(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  const status = columnName(leads.status)
  const id = columnName(leads.id)
  return sql`settled as (
      update ${leads} as l set ${status} = 'complete', ${SETTLE.assignments},
        ${columnName(leads.owner)} = null, ${columnName(leads.leaseUntil)} = null
      from ${recordset(rows, SETTLE.definition)}
      where l.${id} = v.${id} and l.${status} = 'pending'
      returning l.${id}),
    settled_handoffs as (
      delete from ${leadHandoffs} where ${columnName(leadHandoffs.leadId)} in (select ${id} from settled))`
}

/**
 * Each create's answer once the statement has committed: its lead, or the lead already holding its
 * idempotency key (read after the statement, so only the conflicted creates wait on that read; a
 * concurrent holder's insert has committed by the time ours saw the conflict).
 */
async function createResults(
  db: LedgerDb,
  batch: Op[],
  leadOps: LeadOpAt[],
  insertedIds: Set<string | null>,
): Promise<Array<CreateLeadResult | Error | undefined>> {
  const results: Array<CreateLeadResult | Error | undefined> = batch.map(() => undefined)
  const conflicted = leadOps.filter(({ op }) => !insertedIds.has(op.lead.id))
  const keys = conflicted.flatMap(({ op }) => (op.lead.idempotencyKey ? [op.lead.idempotencyKey] : []))
  const holders = new Map<string, LeadRow>()
  let lookupFailed: unknown
  if (keys.length > 0) {
    try {
      const rows = await db.select().from(leads).where(inArray(leads.idempotencyKey, keys))
      for (const row of rows) if (row.idempotencyKey) holders.set(row.idempotencyKey, toLeadRow(row))
    } catch (error) {
      lookupFailed = error
    }
  }
  for (const { op, index, completedAt } of leadOps) {
    if (insertedIds.has(op.lead.id)) {
      results[index] = {
        created: true,
        lead: {
          id: op.lead.id,
          searchUuid: op.lead.searchUuid,
          state: op.lead.state,
          zip: op.lead.zip,
          bodyHash: op.lead.bodyHash ?? null,
          status: completedAt ? 'complete' : 'pending',
          createdAt: op.lead.createdAt,
          deadlineAt: op.lead.deadlineAt,
          completedAt: completedAt ? new Date(completedAt) : null,
          failureReason: null,
        },
      }
      continue
    }
    const holder = op.lead.idempotencyKey ? holders.get(op.lead.idempotencyKey) : undefined
    results[index] = holder
      ? { created: false, lead: holder }
      : lookupFailed instanceof Error
        ? lookupFailed
        : new Error(`lead ${op.lead.id} could not be inserted and its idempotency key's holder was not found`)
  }
  return results
}

/** Rows of a raw statement; PGlite and node-postgres both answer `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}
