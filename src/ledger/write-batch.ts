/**
 * @module Group commit for the ledger: every write (a new lead, a reply, the close of a tier) joins a
 * queue, and one statement writes all queued operations, each table touched by one multi-row insert or
 * update inside it. PGlite runs one statement at a time, so a statement per partner reply would cap a
 * marketplace at a few hundred leads a second; a flush writes the replies of every lead in flight at once.
 * Each caller's promise settles when the statement holding its operation commits; bulk rows travel as JSON
 * parameters (`jsonb_to_recordset`), which both drivers parse far faster than thousands of bound
 * parameters. A tier's last reply and what follows it are one operation, so they commit together and a
 * poll never sees one without the other.
 *
 * Every statement runs under the ledger's timeout, and a create waits no longer than that in all: a create
 * still queued when its time is up is dropped, never written after its caller was told it failed. Replies and
 * settles are safe to write twice (a retry after a statement that timed out but committed): offers and
 * requests insert on conflict do nothing, and replies and settles update only what is still `pending`.
 */
import { inArray, type SQL, sql } from 'drizzle-orm'
import type { TimerHandle, Timers } from '../timers.ts'
import { LedgerError, toLedgerError, withTimeout } from './ledger-error.ts'
import type { LedgerDb } from './open-ledger.ts'
import { allColumns, columnList, columnName, type JsonValue, recordset } from './recordset.ts'
import { leads, offers, partnerRequests } from './schema.ts'
import type {
  CreateLeadResult,
  LeadRow,
  NewLead,
  OfferRecord,
  ReplyRecord,
  SentRequest,
  TierClose,
} from './types.ts'

/** A create; `settled` once its caller has been answered (timed out): a queued create is then never written. */
type LeadOp = {
  kind: 'lead'
  lead: NewLead
  requests: SentRequest[]
  done: Settle<CreateLeadResult>
  settled?: boolean
}
type Op =
  | LeadOp
  | { kind: 'reply'; reply: ReplyRecord; done: Settle<void> }
  | { kind: 'close'; leadId: string; replies: ReplyRecord[]; next: TierClose; done: Settle<void> }

interface Settle<T> {
  resolve(value: T): void
  reject(error: unknown): void
}

/** Operations per statement: bounds its size and the wait of whoever queued last. */
const MAX_OPS_PER_FLUSH = 1000

export interface WriteBatch {
  createLead(lead: NewLead, requests: SentRequest[]): Promise<CreateLeadResult>
  recordReply(reply: ReplyRecord): Promise<void>
  closeTier(replies: ReplyRecord[], next: TierClose, leadId: string): Promise<void>
  /** Resolves when everything queued so far is written. */
  drain(): Promise<void>
}

export interface WriteBatchOptions {
  timers: Timers
  /** Bound on every statement, and on a create's whole wait. */
  timeoutMs: number
}

export function createWriteBatch(db: LedgerDb, options: WriteBatchOptions): WriteBatch {
  const { timers, timeoutMs } = options
  let queue: Op[] = []
  let flushing: Promise<void> | undefined

  function enqueue<T>(make: (done: Settle<T>) => Op): Promise<T> {
    return new Promise<T>((resolve, reject) => push(make({ resolve, reject })))
  }

  function push(op: Op): void {
    queue.push(op)
    // A microtask, not a timer: writes queued in the same turn share the flush, and an idle ledger
    // writes at once (the settle after a lead's last reply, and the lead before its 201, are on the
    // clock; a flush at setImmediate measured slower for both); under load, whatever queues during a
    // flush shares the next one.
    if (!flushing) flushing = Promise.resolve().then(loop)
  }

  async function loop(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_OPS_PER_FLUSH).filter((op) => !(op.kind === 'lead' && op.settled))
      queue = queue.slice(Math.min(queue.length, MAX_OPS_PER_FLUSH))
      if (batch.length === 0) continue
      await flush(batch)
    }
    flushing = undefined
  }

  async function flush(batch: Op[]): Promise<void> {
    try {
      const results = await withTimeout(timers, timeoutMs, 'write', () => writeAll(db, batch))
      batch.forEach((op, i) => {
        const result = results[i]
        if (op.kind !== 'lead') op.done.resolve()
        else if (result instanceof Error) op.done.reject(toLedgerError('write', result))
        else op.done.resolve(result as CreateLeadResult)
      })
    } catch (error) {
      const failure = toLedgerError('write', error)
      // One statement that the database refused (not one it could not run): write each operation alone,
      // so one bad row fails only its own caller instead of every lead that shared its flush.
      if (!failure.transient && batch.length > 1) {
        for (const op of batch) await flush([op])
        return
      }
      for (const op of batch) op.done.reject(failure)
    }
  }

  return {
    createLead: (lead, requests) =>
      new Promise<CreateLeadResult>((resolve, reject) => {
        let timer: TimerHandle
        const op: LeadOp = {
          kind: 'lead',
          lead,
          requests,
          done: {
            resolve(value) {
              if (op.settled) return
              op.settled = true
              timers.clearTimeout(timer)
              resolve(value)
            },
            reject(error) {
              if (op.settled) return
              op.settled = true
              timers.clearTimeout(timer)
              reject(error)
            },
          },
        }
        timer = timers.setTimeout(
          () =>
            op.done.reject(
              new LedgerError('createLead', 'timeout', true, `no answer within ${timeoutMs} ms`),
            ),
          timeoutMs,
        )
        push(op)
      }),
    recordReply: (reply) => enqueue((done) => ({ kind: 'reply', reply, done })),
    closeTier: (replies, next, leadId) => enqueue((done) => ({ kind: 'close', leadId, replies, next, done })),
    async drain() {
      while (flushing) await flushing
    },
  }
}

/**
 * Writes a batch as ONE statement: data-modifying CTEs, so one round trip, one parse and plan, and no
 * BEGIN/COMMIT (a statement is atomic on its own). The CTEs all see the snapshot taken before the
 * statement, so none may update a row another one inserts: a reply to a request created in the same batch
 * (a fast partner answering before its lead's flush) is folded into that request's insert, and so is the
 * settle of a lead created in the same batch. Requests are inserted only for leads whose insert did not
 * hit a taken idempotency key.
 */
async function writeAll(db: LedgerDb, batch: Op[]): Promise<Array<CreateLeadResult | Error | undefined>> {
  const rows = batchRows(batch)
  const ctes = [
    newLeads(rows.leads),
    newLeadRequests(rows.leadRequests),
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

type LeadOpAt = { op: LeadOp; index: number; completedAt: Date | null }
type Row = Record<string, JsonValue>

/** Every row the batch's statement writes, each statement's rows apart. */
function batchRows(batch: Op[]) {
  const leadOps = batch.flatMap((op, index) => (op.kind === 'lead' ? [{ op, index }] : []))
  const newLeadIds = new Set(leadOps.map(({ op }) => op.lead.id))

  const replies = batch.flatMap((op) =>
    op.kind === 'reply' ? [op.reply] : op.kind === 'close' ? op.replies : [],
  )
  const winnerRank = new Map<string, number>()
  const settledAt = new Map<string, Date>()
  for (const op of batch) {
    if (op.kind === 'close' && op.next.kind === 'settle') {
      for (const w of op.next.winners) winnerRank.set(w.offerId, w.rank)
      settledAt.set(op.leadId, op.next.completedAt)
    }
  }

  // Requests created by this batch, each with its reply when that is in the batch too.
  const replyOf = new Map(replies.map((r) => [r.requestId, r]))
  const newRequestIds = new Set<string>()
  const requestRowOf = (leadId: string, r: SentRequest) => {
    newRequestIds.add(r.id)
    return requestRow(leadId, r, replyOf.get(r.id))
  }
  const leadRequests = leadOps.flatMap(({ op }) => op.requests.map((r) => requestRowOf(op.lead.id, r)))
  const nextTierRequests = batch.flatMap((op) =>
    op.kind === 'close' && op.next.kind === 'next-tier'
      ? op.next.requests.map((r) => requestRowOf(op.leadId, r))
      : [],
  )
  const leadOpsAt: LeadOpAt[] = leadOps.map(({ op, index }) => ({
    op,
    index,
    completedAt: op.requests.length === 0 ? op.lead.createdAt : (settledAt.get(op.lead.id) ?? null),
  }))

  const newOfferIds = new Set<string>()
  const offerRows = replies.flatMap((reply) =>
    reply.offers.map((offer) => {
      newOfferIds.add(offer.id)
      return offerRow(reply, offer, winnerRank.get(offer.id))
    }),
  )
  return {
    leadOps: leadOpsAt,
    leads: leadOpsAt.map(({ op, completedAt }) => leadRow(op.lead, completedAt)),
    leadRequests,
    nextTierRequests,
    offers: offerRows,
    replyUpdates: replies.filter((r) => !newRequestIds.has(r.requestId)).map(replyRow),
    // Winners that arrived in earlier batches; those of this batch were inserted displayed.
    earlierWinners: [...winnerRank]
      .filter(([id]) => !newOfferIds.has(id))
      .map(([id, rank]) => WINNER.row({ id, rank })),
    settledUpdates: [...settledAt]
      .filter(([id]) => !newLeadIds.has(id))
      .map(([id, at]) => SETTLE.row({ id, completedAt: at.toISOString() })),
  }
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

function settled(rows: Row[]): SQL | undefined {
  if (rows.length === 0) return undefined
  const status = columnName(leads.status)
  return sql`settled as (
      update ${leads} as l set ${status} = 'complete', ${SETTLE.assignments}
      from ${recordset(rows, SETTLE.definition)}
      where l.${columnName(leads.id)} = v.${columnName(leads.id)} and l.${status} = 'pending')`
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

// Column lists of the statements, from the schema: whole rows for the inserts, the touched columns for updates.
const LEAD = allColumns(leads)
const REQUEST = allColumns(partnerRequests)
const OFFER = allColumns(offers)
const REPLY = columnList(partnerRequests, [
  'id',
  'status',
  'reason',
  'httpStatus',
  'partnerLeadId',
  'partnerLeadIdHash',
  'latencyMs',
  'offerCount',
  'offersDropped',
  'repliedAt',
])
const WINNER = columnList(offers, ['id', 'rank'])
const SETTLE = columnList(leads, ['id', 'completedAt'])

function leadRow(lead: NewLead, completedAt: Date | null): Row {
  return LEAD.row({
    id: lead.id,
    searchUuid: lead.searchUuid,
    state: lead.state,
    zip: lead.zip,
    idempotencyKey: lead.idempotencyKey ?? null,
    bodyHash: lead.bodyHash ?? null,
    status: completedAt ? 'complete' : 'pending',
    createdAt: lead.createdAt.toISOString(),
    deadlineAt: lead.deadlineAt.toISOString(),
    completedAt: completedAt?.toISOString() ?? null,
    failureReason: null,
  })
}

/** The answer columns of a request: its reply's, or `pending` and empty while it has none. */
function replyFields(r: ReplyRecord | undefined) {
  return {
    status: r?.status ?? 'pending',
    reason: r?.reason ?? null,
    httpStatus: r?.httpStatus ?? null,
    partnerLeadId: r?.partnerLeadId ?? null,
    partnerLeadIdHash: r?.partnerLeadIdHash ?? null,
    latencyMs: r ? Math.round(r.latencyMs) : null,
    offerCount: r?.offers.length ?? 0,
    offersDropped: r?.offersDropped ?? 0,
    repliedAt: r?.repliedAt.toISOString() ?? null,
  }
}

function replyRow(r: ReplyRecord): Row {
  return REPLY.row({ id: r.requestId, ...replyFields(r) })
}

function requestRow(leadId: string, request: SentRequest, reply: ReplyRecord | undefined): Row {
  return REQUEST.row({
    id: request.id,
    leadId,
    partnerId: request.partnerId,
    tier: request.tier,
    sentAt: request.sentAt.toISOString(),
    ...replyFields(reply),
  })
}

function offerRow(reply: ReplyRecord, offer: OfferRecord, rank: number | undefined): Row {
  return OFFER.row({
    id: offer.id,
    leadId: reply.leadId,
    requestId: reply.requestId,
    partnerId: reply.partnerId,
    position: offer.position,
    rate: offer.rate,
    productType: offer.productType,
    recommendationScore: offer.recommendationScore,
    clickUrl: offer.clickUrl,
    name: offer.name ?? null,
    displayName: offer.displayName ?? null,
    offerDetails: offer.offerDetails ?? null,
    logoSrc: offer.logoSrc ?? null,
    displayed: rank !== undefined,
    rank: rank ?? null,
    createdAt: reply.repliedAt.toISOString(),
  })
}

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

/** Rows of a raw statement; PGlite and node-postgres both answer `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}
