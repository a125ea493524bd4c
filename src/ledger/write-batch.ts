/**
 * @module Group commit for the ledger: every write (a new lead, a reply, the close of a tier) joins a
 * queue, and one transaction writes all queued operations with a handful of multi-row statements. PGlite
 * runs one statement at a time, so a statement per partner reply would cap a marketplace at a few hundred
 * leads a second; a flush writes the replies of every lead in flight at once. Each caller's promise settles
 * when the transaction holding its operation commits; bulk rows travel as one JSON parameter
 * (`jsonb_to_recordset`), which both drivers parse far faster than thousands of bound parameters, so a tier's last reply and what follows it still
 * commit together, and a poll never sees one without the other.
 */
import { inArray, sql } from 'drizzle-orm'
import type { LedgerDb } from './open-ledger.ts'
import { leads, offers, partnerRequests } from './schema.ts'
import type { CreateLeadResult, LeadRow, NewLead, ReplyRecord, SentRequest, TierClose } from './types.ts'

type Tx = Parameters<Parameters<LedgerDb['transaction']>[0]>[0]

type Op =
  | { kind: 'lead'; lead: NewLead; requests: SentRequest[]; done: Settle<CreateLeadResult> }
  | { kind: 'reply'; reply: ReplyRecord; done: Settle<void> }
  | { kind: 'close'; leadId: string; replies: ReplyRecord[]; next: TierClose; done: Settle<void> }

interface Settle<T> {
  resolve(value: T): void
  reject(error: unknown): void
}

/** Operations per transaction: bounds its size and the wait of whoever queued last. */
const MAX_OPS_PER_FLUSH = 1000

export interface WriteBatch {
  createLead(lead: NewLead, requests: SentRequest[]): Promise<CreateLeadResult>
  recordReply(reply: ReplyRecord): Promise<void>
  closeTier(replies: ReplyRecord[], next: TierClose, leadId: string): Promise<void>
  /** Resolves when everything queued so far is written. */
  drain(): Promise<void>
}

export function createWriteBatch(db: LedgerDb): WriteBatch {
  let queue: Op[] = []
  let flushing: Promise<void> | undefined

  function enqueue<T>(make: (done: Settle<T>) => Op): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push(make({ resolve, reject }))
      // A microtask, not a timer: writes queued in the same turn share the flush, and an idle ledger
      // writes at once; under load, whatever queues during a flush shares the next one.
      if (!flushing) flushing = Promise.resolve().then(loop)
    })
  }

  async function loop(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_OPS_PER_FLUSH)
      queue = queue.slice(batch.length)
      try {
        const results = await db.transaction((tx) => writeAll(tx, batch))
        batch.forEach((op, i) => {
          if (op.kind === 'lead') op.done.resolve(results[i] as CreateLeadResult)
          else op.done.resolve()
        })
      } catch (error) {
        for (const op of batch) op.done.reject(error)
      }
    }
    flushing = undefined
  }

  return {
    createLead: (lead, requests) => enqueue((done) => ({ kind: 'lead', lead, requests, done })),
    recordReply: (reply) => enqueue((done) => ({ kind: 'reply', reply, done })),
    closeTier: (replies, next, leadId) => enqueue((done) => ({ kind: 'close', leadId, replies, next, done })),
    async drain() {
      while (flushing) await flushing
    },
  }
}

/** Writes a batch in dependency order: leads, requests, offers, then the updates that refer to them. */
async function writeAll(tx: Tx, batch: Op[]): Promise<Array<CreateLeadResult | undefined>> {
  const results: Array<CreateLeadResult | undefined> = batch.map(() => undefined)

  // 1. New leads; a taken idempotency key inserts nothing, and the lead holding it is returned instead.
  const leadOps = batch.flatMap((op, index) => (op.kind === 'lead' ? [{ op, index }] : []))
  const insertedLeads = new Map<string, LeadRow>()
  if (leadOps.length > 0) {
    const values = leadOps.map(({ op: { lead, requests } }) => ({
      id: lead.id,
      search_uuid: lead.searchUuid,
      state: lead.state,
      zip: lead.zip,
      idempotency_key: lead.idempotencyKey ?? null,
      body_hash: lead.bodyHash ?? null,
      status: requests.length === 0 ? 'complete' : 'pending',
      created_at: lead.createdAt.toISOString(),
      deadline_at: lead.deadlineAt.toISOString(),
      completed_at: requests.length === 0 ? lead.createdAt.toISOString() : null,
    }))
    const inserted = await tx.execute(sql`
      insert into ${leads} (id, search_uuid, state, zip, idempotency_key, body_hash, status, created_at,
        deadline_at, completed_at)
      select * from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(
        id uuid, search_uuid uuid, state text, zip text, idempotency_key text, body_hash text, status text,
        created_at timestamptz, deadline_at timestamptz, completed_at timestamptz)
      on conflict do nothing
      returning id`)
    const ids = new Set(rowsOf<{ id: string }>(inserted).map((row) => row.id))
    for (const { op } of leadOps) {
      if (!ids.has(op.lead.id)) continue
      const complete = op.requests.length === 0
      insertedLeads.set(op.lead.id, {
        id: op.lead.id,
        searchUuid: op.lead.searchUuid,
        state: op.lead.state,
        zip: op.lead.zip,
        bodyHash: op.lead.bodyHash ?? null,
        status: complete ? 'complete' : 'pending',
        createdAt: op.lead.createdAt,
        deadlineAt: op.lead.deadlineAt,
        completedAt: complete ? op.lead.createdAt : null,
      })
    }
  }
  const conflicted = leadOps.filter(({ op }) => !insertedLeads.has(op.lead.id))
  const keys = conflicted.flatMap(({ op }) => (op.lead.idempotencyKey ? [op.lead.idempotencyKey] : []))
  const holders = new Map<string, LeadRow>()
  if (keys.length > 0) {
    const rows = await tx.select().from(leads).where(inArray(leads.idempotencyKey, keys))
    for (const row of rows) if (row.idempotencyKey) holders.set(row.idempotencyKey, toLeadRow(row))
  }
  for (const { op, index } of leadOps) {
    const inserted = insertedLeads.get(op.lead.id)
    const holder = op.lead.idempotencyKey ? holders.get(op.lead.idempotencyKey) : undefined
    if (inserted) results[index] = { created: true, lead: inserted }
    else if (holder) results[index] = { created: false, lead: holder }
    else throw new Error(`lead ${op.lead.id} could not be inserted and holds no idempotency key`)
  }

  // 2. Requests: of the leads just created, and of the tiers that follow a closed one.
  const requestRows = [
    ...leadOps
      .filter(({ op }) => insertedLeads.has(op.lead.id))
      .flatMap(({ op }) => op.requests.map((r) => requestRow(op.lead.id, r))),
    ...batch.flatMap((op) =>
      op.kind === 'close' && op.next.kind === 'next-tier'
        ? op.next.requests.map((r) => requestRow(op.leadId, r))
        : [],
    ),
  ]
  if (requestRows.length > 0) {
    await tx.execute(sql`
      insert into ${partnerRequests} (id, lead_id, partner_id, tier, sent_at, status)
      select id, lead_id, partner_id, tier, sent_at, 'pending'
      from jsonb_to_recordset(${JSON.stringify(requestRows)}::jsonb)
        as v(id uuid, lead_id uuid, partner_id text, tier text, sent_at timestamptz)`)
  }

  // 3. Replies: their offers (winners among them marked at once), then the request rows.
  const replies = batch.flatMap((op) =>
    op.kind === 'reply' ? [op.reply] : op.kind === 'close' ? op.replies : [],
  )
  const winnerRank = new Map<string, number>()
  for (const op of batch) {
    if (op.kind === 'close' && op.next.kind === 'settle') {
      for (const w of op.next.winners) winnerRank.set(w.offerId, w.rank)
    }
  }
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
  if (offerRows.length > 0) {
    await tx.execute(sql`
      insert into ${offers} (id, lead_id, request_id, partner_id, position, rate, product_type,
        recommendation_score, click_url, name, display_name, offer_details, logo_src, displayed, rank, created_at)
      select * from jsonb_to_recordset(${JSON.stringify(offerRows)}::jsonb) as v(
        id uuid, lead_id uuid, request_id uuid, partner_id text, position integer, rate double precision,
        product_type text, recommendation_score double precision, click_url text, name text, display_name text,
        offer_details text, logo_src text, displayed boolean, rank integer, created_at timestamptz)`)
  }
  if (replies.length > 0) {
    const values = replies.map((r) => ({
      id: r.requestId,
      status: r.status,
      reason: r.reason ?? null,
      http_status: r.httpStatus ?? null,
      partner_lead_id: r.partnerLeadId ?? null,
      latency_ms: Math.round(r.latencyMs),
      offer_count: r.offers.length,
      replied_at: r.repliedAt.toISOString(),
    }))
    await tx.execute(sql`
      update ${partnerRequests} as r set
        status = v.status, reason = v.reason, http_status = v.http_status, partner_lead_id = v.partner_lead_id,
        latency_ms = v.latency_ms, offer_count = v.offer_count, replied_at = v.replied_at
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(
        id uuid, status text, reason text, http_status integer, partner_lead_id text,
        latency_ms integer, offer_count integer, replied_at timestamptz)
      where r.id = v.id`)
  }

  // 4. Settled leads: winners written earlier, then the lead itself.
  const earlierWinners = [...winnerRank]
    .filter(([id]) => !newOfferIds.has(id))
    .map(([id, rank]) => ({ id, rank }))
  if (earlierWinners.length > 0) {
    await tx.execute(sql`
      update ${offers} as o set displayed = true, rank = v.rank
      from jsonb_to_recordset(${JSON.stringify(earlierWinners)}::jsonb) as v(id uuid, rank integer)
      where o.id = v.id`)
  }
  const settled = batch.flatMap((op) =>
    op.kind === 'close' && op.next.kind === 'settle'
      ? [{ id: op.leadId, completed_at: op.next.completedAt.toISOString() }]
      : [],
  )
  if (settled.length > 0) {
    await tx.execute(sql`
      update ${leads} as l set status = 'complete', completed_at = v.completed_at
      from jsonb_to_recordset(${JSON.stringify(settled)}::jsonb) as v(id uuid, completed_at timestamptz)
      where l.id = v.id`)
  }
  return results
}

function requestRow(leadId: string, request: SentRequest) {
  return {
    id: request.id,
    lead_id: leadId,
    partner_id: request.partnerId,
    tier: request.tier,
    sent_at: request.sentAt.toISOString(),
  }
}

export function toLeadRow(row: typeof leads.$inferSelect): LeadRow {
  return {
    id: row.id,
    searchUuid: row.searchUuid,
    state: row.state,
    zip: row.zip,
    bodyHash: row.bodyHash,
    status: row.status === 'complete' ? 'complete' : 'pending',
    createdAt: row.createdAt,
    deadlineAt: row.deadlineAt,
    completedAt: row.completedAt,
  }
}

/** Rows of a raw statement; PGlite and node-postgres both answer `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}
