/**
 * @module The one statement a flush of the write batch runs: a data-modifying CTE per table touched, then
 * each create's answer (its new lead, or the lead already holding its idempotency key).
 */
import { type SQL, sql } from 'drizzle-orm'
import { createResults } from './create-results.ts'
import type { LedgerDb } from './ledger-db.ts'
import { columnName, recordset } from './recordset.ts'
import {
  applicantClaims,
  consentRecords,
  consentTexts,
  leadHandoffs,
  leads,
  offers,
  partnerRequests,
  withdrawnLeads,
} from './schema.ts'
import { searchEventCtes, searchEventRows } from './search-event-writes.ts'
import type { CreateLeadResult } from './types.ts'
import type { Op } from './write-ops.ts'
import {
  batchRows,
  CLAIM,
  CONSENT_RECORD,
  CONSENT_TEXT,
  HANDOFF,
  LEAD,
  OFFER,
  REPLY,
  REQUEST,
  type Row,
  SETTLE,
  SETTLED_OFFER,
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
  const claiming = rows.claims.length > 0
  const ctes = [
    newClaims(rows.claims),
    newLeads(rows.leads, claiming),
    newLeadRequests(rows.leadRequests),
    newHandoffs(rows.handoffs),
    newConsentTexts(rows.consentTexts),
    newConsentRecords(rows.consentRecords),
    nextTierRequests(rows.nextTierRequests),
    newOffers(rows.offers),
    replied(rows.replyUpdates),
    earlierOffers(rows.earlierOffers),
    settled(rows.settledUpdates),
    ...searchEventCtes(searchEventRows(batch)),
  ].filter((cte) => cte !== undefined)
  if (ctes.length === 0) return batch.map(() => undefined)
  const main =
    rows.leads.length === 0
      ? sql`select null as id, null as kind`
      : claiming
        ? sql`select id, 'lead' as kind from new_leads union all select lead_id, 'claim' from new_claims`
        : sql`select id, 'lead' as kind from new_leads`
  const written = await db.execute(sql`with ${sql.join(ctes, sql`, `)} ${main}`)
  const returned = rowsOf<{ id: string | null; kind: string | null }>(written)
  const ids = (kind: string) => new Set(returned.filter((r) => r.kind === kind).map((r) => r.id))
  return createResults(db, batch, rows.leadOps, { inserted: ids('lead'), claimed: ids('claim') })
}

/**
 * Applicant claims (docs/decisions/0106-duplicate-applicants.md): a new key is inserted; a held one is taken
 * over only once its window has ended. A lead whose idempotency key is already held claims nothing (it is a
 * retry, answered with the holder). Concurrent statements claiming one key wait on each other's row: one wins.
 */
function newClaims(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  const key = columnName(leads.idempotencyKey)
  const expiresAt = columnName(applicantClaims.expiresAt)
  const claimedAt = columnName(applicantClaims.claimedAt)
  const applicantKey = columnName(applicantClaims.applicantKey)
  const ssnKey = columnName(applicantClaims.ssnKey)
  const taken = [applicantClaims.leadId, applicantClaims.claimedAt, applicantClaims.expiresAt]
  const replaced = [...taken, applicantClaims.contactKey, applicantClaims.ssnKey].map(columnName)
  return sql`new_claims as (
      insert into ${applicantClaims} (${CLAIM.names})
      select ${CLAIM.names} from ${recordset(rows, `${CLAIM.definition}, "idempotency_key" text, "ssn_cap" integer, "ssn_rank" integer`)}
      where (v."idempotency_key" is null
          or not exists (select 1 from ${leads} as l where l.${key} = v."idempotency_key"))
        and (v.${ssnKey} is null or v."ssn_rank" + (select count(*) from ${applicantClaims} as c
          where c.${ssnKey} = v.${ssnKey} and c.${applicantKey} <> v.${applicantKey}
            and c.${expiresAt} > v.${claimedAt}) < v."ssn_cap")
      on conflict (${applicantKey}) do update
        set ${sql.join(
          replaced.map((c) => sql`${c} = excluded.${c}`),
          sql`, `,
        )}
        where ${applicantClaims}.${expiresAt} <= excluded.${claimedAt}
      returning ${columnName(applicantClaims.leadId)})`
}

/**
 * A taken idempotency key (or uuid) inserts nothing; the lead holding the key is looked up afterwards. With
 * claims in the batch, a lead with an applicant key is inserted only if it claimed it. A lead already
 * withdrawn (its caller gave up before this statement ran) is never inserted.
 */
function newLeads(rows: Row[], claiming: boolean): SQL | undefined {
  if (rows.length === 0) return undefined
  const id = columnName(leads.id)
  const claimed = claiming
    ? sql`and (v.${columnName(leads.applicantKey)} is null or v.${id} in (select lead_id from new_claims))`
    : sql``
  return sql`new_leads as (
      insert into ${leads} (${LEAD.names})
      select * from ${recordset(rows, LEAD.definition)}
      where not exists (select 1 from ${withdrawnLeads} as w where w.${columnName(withdrawnLeads.leadId)} = v.${id})
      ${claimed}
      on conflict do nothing
      returning id)`
}

/** The consent texts of the batch's leads; a text already stored keeps its first row. */
function newConsentTexts(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`new_consent_texts as (
      insert into ${consentTexts} (${CONSENT_TEXT.names})
      select * from ${recordset(rows, CONSENT_TEXT.definition)}
      on conflict do nothing)`
}

/** A lead's consent record, only for a lead this statement inserted. */
function newConsentRecords(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`new_consent_records as (
      insert into ${consentRecords} (${CONSENT_RECORD.names})
      select * from ${recordset(rows, CONSENT_RECORD.definition)}
      where v.${columnName(consentRecords.leadId)} in (select id from new_leads))`
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

/** Settles offers written before the settle: a winner is displayed with its rank, every offer gets its outcome. */
function earlierOffers(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  return sql`settled_offers as (
      update ${offers} as o set ${columnName(offers.displayed)} = v.${columnName(offers.rank)} is not null,
        ${SETTLED_OFFER.assignments}
      from ${recordset(rows, SETTLED_OFFER.definition)}
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

/** Rows of a raw statement; PGlite and node-postgres both answer `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}
