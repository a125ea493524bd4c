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
import { LedgerError, toLedgerError, withTimeout } from './ledger-error.ts'
import type { LedgerDb } from './open-ledger.ts'
import { leads, offers, partnerRequests } from './schema.ts'
import type { TimerHandle, Timers } from './timers.ts'
import type { CreateLeadResult, LeadRow, NewLead, ReplyRecord, SentRequest, TierClose } from './types.ts'

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
  const results: Array<CreateLeadResult | Error | undefined> = batch.map(() => undefined)
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
  const leadRequestRows = leadOps.flatMap(({ op }) => op.requests.map((r) => requestRowOf(op.lead.id, r)))
  const nextTierRows = batch.flatMap((op) =>
    op.kind === 'close' && op.next.kind === 'next-tier'
      ? op.next.requests.map((r) => requestRowOf(op.leadId, r))
      : [],
  )
  const leadRows = leadOps.map(({ op: { lead, requests } }) => {
    const completedAt = requests.length === 0 ? lead.createdAt : (settledAt.get(lead.id) ?? null)
    return {
      id: lead.id,
      search_uuid: lead.searchUuid,
      state: lead.state,
      zip: lead.zip,
      idempotency_key: lead.idempotencyKey ?? null,
      body_hash: lead.bodyHash ?? null,
      status: completedAt ? 'complete' : 'pending',
      created_at: lead.createdAt.toISOString(),
      deadline_at: lead.deadlineAt.toISOString(),
      completed_at: completedAt?.toISOString() ?? null,
    }
  })

  const newOfferIds = new Set<string>()
  const offerRows = replies.flatMap((reply) =>
    reply.offers.map((offer) => {
      newOfferIds.add(offer.id)
      const rank = winnerRank.get(offer.id)
      return {
        id: offer.id,
        lead_id: reply.leadId,
        request_id: reply.requestId,
        partner_id: reply.partnerId,
        position: offer.position,
        rate: offer.rate,
        product_type: offer.productType,
        recommendation_score: offer.recommendationScore,
        click_url: offer.clickUrl,
        name: offer.name ?? null,
        display_name: offer.displayName ?? null,
        offer_details: offer.offerDetails ?? null,
        logo_src: offer.logoSrc ?? null,
        displayed: rank !== undefined,
        rank: rank ?? null,
        created_at: reply.repliedAt.toISOString(),
      }
    }),
  )
  const replyUpdates = replies.filter((r) => !newRequestIds.has(r.requestId)).map(replyColumns)
  const earlierWinners = [...winnerRank]
    .filter(([id]) => !newOfferIds.has(id))
    .map(([id, rank]) => ({ id, rank }))
  const settledUpdates = [...settledAt]
    .filter(([id]) => !newLeadIds.has(id))
    .map(([id, at]) => ({ id, completed_at: at.toISOString() }))

  const ctes: SQL[] = []
  if (leadRows.length > 0) {
    // A taken idempotency key (or uuid) inserts nothing; the lead holding the key is looked up below.
    ctes.push(sql`new_leads as (
      insert into ${leads} (id, search_uuid, state, zip, idempotency_key, body_hash, status, created_at,
        deadline_at, completed_at)
      select * from ${recordset(leadRows, LEAD_COLUMNS)}
      on conflict do nothing
      returning id)`)
  }
  if (leadRequestRows.length > 0) {
    ctes.push(sql`new_lead_requests as (
      insert into ${partnerRequests} (${sql.raw(REQUEST_INSERT)})
      select ${sql.raw(REQUEST_INSERT)} from ${recordset(leadRequestRows, REQUEST_COLUMNS)}
      where v.lead_id in (select id from new_leads))`)
  }
  if (nextTierRows.length > 0) {
    ctes.push(sql`next_tier_requests as (
      insert into ${partnerRequests} (${sql.raw(REQUEST_INSERT)})
      select ${sql.raw(REQUEST_INSERT)} from ${recordset(nextTierRows, REQUEST_COLUMNS)}
      on conflict do nothing)`)
  }
  if (offerRows.length > 0) {
    ctes.push(sql`new_offers as (
      insert into ${offers} (id, lead_id, request_id, partner_id, position, rate, product_type,
        recommendation_score, click_url, name, display_name, offer_details, logo_src, displayed, rank, created_at)
      select * from ${recordset(offerRows, OFFER_COLUMNS)}
      on conflict do nothing)`)
  }
  if (replyUpdates.length > 0) {
    ctes.push(sql`replied as (
      update ${partnerRequests} as r set
        status = v.status, reason = v.reason, http_status = v.http_status, partner_lead_id = v.partner_lead_id,
        latency_ms = v.latency_ms, offer_count = v.offer_count, replied_at = v.replied_at
      from ${recordset(replyUpdates, REPLY_COLUMNS)}
      where r.id = v.id and r.status = 'pending')`)
  }
  // Winners that arrived in earlier batches; those of this batch were inserted displayed.
  if (earlierWinners.length > 0) {
    ctes.push(sql`winners as (
      update ${offers} as o set displayed = true, rank = v.rank
      from ${recordset(earlierWinners, 'id uuid, rank integer')}
      where o.id = v.id)`)
  }
  if (settledUpdates.length > 0) {
    ctes.push(sql`settled as (
      update ${leads} as l set status = 'complete', completed_at = v.completed_at
      from ${recordset(settledUpdates, 'id uuid, completed_at timestamptz')}
      where l.id = v.id and l.status = 'pending')`)
  }
  if (ctes.length === 0) return results
  const main = leadRows.length > 0 ? sql`select id from new_leads` : sql`select null as id`
  const written = await db.execute(sql`with ${sql.join(ctes, sql`, `)} ${main}`)

  const insertedIds = new Set(rowsOf<{ id: string | null }>(written).map((row) => row.id))
  const conflicted = leadOps.filter(({ op }) => !insertedIds.has(op.lead.id))
  const keys = conflicted.flatMap(({ op }) => (op.lead.idempotencyKey ? [op.lead.idempotencyKey] : []))
  const holders = new Map<string, LeadRow>()
  let lookupFailed: unknown
  if (keys.length > 0) {
    // After the statement, which has committed the rest of the batch: only the conflicted creates wait on
    // this read. A concurrent holder's insert has committed by the time ours saw the conflict.
    try {
      const rows = await db.select().from(leads).where(inArray(leads.idempotencyKey, keys))
      for (const row of rows) if (row.idempotencyKey) holders.set(row.idempotencyKey, toLeadRow(row))
    } catch (error) {
      lookupFailed = error
    }
  }
  leadOps.forEach(({ op, index }, i) => {
    const row = leadRows[i] as (typeof leadRows)[number]
    if (insertedIds.has(op.lead.id)) {
      results[index] = {
        created: true,
        lead: {
          id: op.lead.id,
          searchUuid: op.lead.searchUuid,
          state: op.lead.state,
          zip: op.lead.zip,
          bodyHash: op.lead.bodyHash ?? null,
          status: row.status === 'complete' ? 'complete' : 'pending',
          createdAt: op.lead.createdAt,
          deadlineAt: op.lead.deadlineAt,
          completedAt: row.completed_at ? new Date(row.completed_at) : null,
          failureReason: null,
        },
      }
      return
    }
    const holder = op.lead.idempotencyKey ? holders.get(op.lead.idempotencyKey) : undefined
    results[index] = holder
      ? { created: false, lead: holder }
      : lookupFailed instanceof Error
        ? lookupFailed
        : new Error(`lead ${op.lead.id} could not be inserted and its idempotency key's holder was not found`)
  })
  return results
}

const LEAD_COLUMNS = `id uuid, search_uuid uuid, state text, zip text, idempotency_key text, body_hash text,
  status text, created_at timestamptz, deadline_at timestamptz, completed_at timestamptz`
const REPLY_FIELDS = `status text, reason text, http_status integer, partner_lead_id text, latency_ms integer,
  offer_count integer, replied_at timestamptz`
const REQUEST_COLUMNS = `id uuid, lead_id uuid, partner_id text, tier text, sent_at timestamptz, ${REPLY_FIELDS}`
const REQUEST_INSERT =
  'id, lead_id, partner_id, tier, sent_at, status, reason, http_status, partner_lead_id, latency_ms, offer_count, replied_at'
const REPLY_COLUMNS = `id uuid, ${REPLY_FIELDS}`
const OFFER_COLUMNS = `id uuid, lead_id uuid, request_id uuid, partner_id text, position integer,
  rate double precision, product_type text, recommendation_score double precision, click_url text, name text,
  display_name text, offer_details text, logo_src text, displayed boolean, rank integer, created_at timestamptz`

/**
 * Rows as one JSON parameter, as a subquery `v`. The LIMIT is the exact row count: without it the planner
 * guesses 100 rows for any jsonb_to_recordset and joins an update by hash over a sequential scan of the
 * whole table, a cost that grows with the ledger instead of with the batch.
 */
export function recordset(rows: object[], columns: string): SQL {
  return sql`(select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${sql.raw(columns)})
    limit ${sql.raw(String(rows.length))}) as v`
}

function replyColumns(r: ReplyRecord) {
  return {
    id: r.requestId,
    status: r.status,
    reason: r.reason ?? null,
    http_status: r.httpStatus ?? null,
    partner_lead_id: r.partnerLeadId ?? null,
    latency_ms: Math.round(r.latencyMs),
    offer_count: r.offers.length,
    replied_at: r.repliedAt.toISOString(),
  }
}

function requestRow(leadId: string, request: SentRequest, reply: ReplyRecord | undefined) {
  const { id: _, ...answered } = reply
    ? replyColumns(reply)
    : {
        id: request.id,
        status: 'pending',
        reason: null,
        http_status: null,
        partner_lead_id: null,
        latency_ms: null,
        offer_count: 0,
        replied_at: null,
      }
  return {
    id: request.id,
    lead_id: leadId,
    partner_id: request.partnerId,
    tier: request.tier,
    sent_at: request.sentAt.toISOString(),
    ...answered,
  }
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
