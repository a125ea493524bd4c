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
 * Insurance search events (docs/placements.md) have a queue of their own (`search-event-queue.ts`): they never
 * join these statements, so a lead's create never waits behind them, and a flood of them is refused past a bound.
 *
 * Every statement runs under the ledger's timeout, and a create waits no longer than that in all: a create
 * still queued when its time is up is dropped, never written after its caller was told it failed. Replies and
 * settles are safe to write twice (a retry after a statement that timed out but committed): offers and
 * requests insert on conflict do nothing, and replies and settles update only what is still `pending`.
 */
import type { TimerHandle, Timers } from '../http/timers.ts'
import type { LedgerDb } from './ledger-db.ts'
import { LedgerError, toLedgerError, withTimeout } from './ledger-error.ts'
import { createSearchEventQueue } from './search-event-queue.ts'
import type { CreateLeadResult, NewLead, ReplyRecord, SearchEvent, SentRequest, TierClose } from './types.ts'
import { type LeadOp, type Op, opWeight, type Settle } from './write-ops.ts'
import { writeAll } from './write-statement.ts'

/** Operations per statement: bounds its size and the wait of whoever queued last. */
const MAX_OPS_PER_FLUSH = 1000
/**
 * About this many characters of rows per statement (`opWeight`); an operation heavier than that goes alone.
 * After a statement that reached it, the loop yields a macrotask before the next, so other requests are served
 * between the statements of a burst of heavy replies. Ordinary flushes (leads, replies of a few KB) are far
 * below it and go as before.
 */
export const MAX_CHARS_PER_FLUSH = 128 * 1024

export interface WriteBatch {
  createLead(lead: NewLead, requests: SentRequest[]): Promise<CreateLeadResult>
  recordReply(reply: ReplyRecord): Promise<void>
  closeTier(replies: ReplyRecord[], next: TierClose, leadId: string): Promise<void>
  /**
   * Offer search events (docs/placements.md): written by their own queue and timer, never in a lead's
   * statement; refused at once (`LedgerError` code `overflow`) while that queue is full.
   */
  recordSearchEvents(events: readonly SearchEvent[]): Promise<void>
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
  const searchEvents = createSearchEventQueue({ timers, write: (batch) => flush(batch) })

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
      const { batch, full } = nextBatch(queue)
      queue = queue.slice(batch.length)
      const live = batch.filter((op) => !(op.kind === 'lead' && op.settled))
      if (live.length > 0) await flush(live)
      if (full && queue.length > 0) await new Promise<void>((resolve) => setImmediate(resolve))
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
      new Promise<CreateLeadResult>((resolve, reject) =>
        push(leadOp(lead, requests, { resolve, reject }, { timers, timeoutMs })),
      ),
    recordReply: (reply) => enqueue((done) => ({ kind: 'reply', reply, done })),
    closeTier: (replies, next, leadId) => enqueue((done) => ({ kind: 'close', leadId, replies, next, done })),
    recordSearchEvents: (events) =>
      new Promise<void>((resolve, reject) =>
        searchEvents.push({ kind: 'search', events, done: { resolve, reject } }),
      ),
    async drain() {
      await searchEvents.drain()
      while (flushing) await flushing
    },
  }
}

/** A create's operation: it settles once, and fails with a timeout if still unwritten after `timeoutMs`. */
function leadOp(
  lead: NewLead,
  requests: SentRequest[],
  caller: Settle<CreateLeadResult>,
  { timers, timeoutMs }: WriteBatchOptions,
): LeadOp {
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
        caller.resolve(value)
      },
      reject(error) {
        if (op.settled) return
        op.settled = true
        timers.clearTimeout(timer)
        caller.reject(error)
      },
    },
  }
  timer = timers.setTimeout(
    () => op.done.reject(new LedgerError('createLead', 'timeout', true, `no answer within ${timeoutMs} ms`)),
    timeoutMs,
  )
  return op
}

/** The operations at the head of `queue` that one statement writes; `full` when its size bound cut it. */
function nextBatch(queue: readonly Op[]): { batch: Op[]; full: boolean } {
  let chars = 0
  let count = 0
  for (const op of queue) {
    if (count === MAX_OPS_PER_FLUSH) return { batch: queue.slice(0, count), full: false }
    chars += opWeight(op)
    if (count > 0 && chars > MAX_CHARS_PER_FLUSH) return { batch: queue.slice(0, count), full: true }
    count++
    if (chars >= MAX_CHARS_PER_FLUSH) return { batch: queue.slice(0, count), full: true }
  }
  return { batch: queue.slice(0, count), full: false }
}
