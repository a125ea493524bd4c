/**
 * @module The write batch's queue of insurance search events (docs/placements.md), apart from the queue of
 * leads, replies and tier closes: a search event never joins a lead's statement, so a lead's create never
 * waits behind one. Events wait here for their own timer (`SEARCH_EVENTS_FLUSH_MS`), are written in
 * statements of at most `MAX_SEARCH_ROWS_PER_STATEMENT` rows with the event loop turning between them, and
 * at most `MAX_SEARCH_ROWS_HELD` rows wait or are being written at once: past that an event is refused at
 * once (`LedgerError` code `overflow`), never queued, so a flood costs the database a bounded amount of
 * work a second. `drain()` writes everything held, whatever the timer.
 */
import type { TimerHandle, Timers } from '../http/timers.ts'
import { LedgerError } from './ledger-error.ts'
import type { Op } from './write-ops.ts'

/**
 * Search events wait this long for their statement: nobody waits on them, and one statement a second for
 * every event of that second costs the event loop far less than one per search (PGlite runs each statement
 * synchronously on it).
 */
export const SEARCH_EVENTS_FLUSH_MS = 1000
/** Rows (a search, a completion, one offer shown or clicked) held or being written at most. */
export const MAX_SEARCH_ROWS_HELD = 20_000
/** Rows one statement writes at most: bounds how long a lead's statement can wait for one on PGlite. */
export const MAX_SEARCH_ROWS_PER_STATEMENT = 2_000
/** The code of the `LedgerError` an event is refused with while the queue is full. */
export const SEARCH_EVENTS_OVERFLOW = 'overflow'

type SearchOp = Extract<Op, { kind: 'search' }>

export interface SearchEventQueue {
  /** Holds `op` for the next flush, or refuses it at once (its `done` rejects) when the queue is full. */
  push(op: SearchOp): void
  /** Writes everything held now and resolves when nothing is held or being written. */
  drain(): Promise<void>
}

export interface SearchEventQueueOptions {
  timers: Timers
  /** Writes one statement's operations and settles each one's `done`; never rejects. */
  write(batch: SearchOp[]): Promise<void>
  maxRowsHeld?: number
  maxRowsPerStatement?: number
}

/** The rows an operation adds: one per event, one per offer a `shown` event names. */
function searchOpRows(op: SearchOp): number {
  return op.events.reduce((sum, e) => sum + (e.kind === 'shown' ? Math.max(1, e.offerIds.length) : 1), 0)
}

export function createSearchEventQueue(options: SearchEventQueueOptions): SearchEventQueue {
  const { timers, write } = options
  const maxHeld = options.maxRowsHeld ?? MAX_SEARCH_ROWS_HELD
  const perStatement = options.maxRowsPerStatement ?? MAX_SEARCH_ROWS_PER_STATEMENT
  let waiting: SearchOp[] = []
  /** Rows waiting plus rows in the statement under way: what the bound counts. */
  let held = 0
  let timer: TimerHandle | undefined
  let writing: Promise<void> | undefined

  function schedule(): void {
    if (timer !== undefined || writing || waiting.length === 0) return
    timer = timers.setTimeout(() => {
      timer = undefined
      start()
    }, SEARCH_EVENTS_FLUSH_MS)
  }

  function start(): Promise<void> {
    timers.clearTimeout(timer)
    timer = undefined
    writing ??= writeWaiting().finally(() => {
      writing = undefined
      schedule()
    })
    return writing
  }

  /** Writes what waits now, a statement at a time; what arrives meanwhile waits for the next timer. */
  async function writeWaiting(): Promise<void> {
    const taken = waiting
    waiting = []
    for (let i = 0; i < taken.length; ) {
      const batch = statementOf(taken, i, perStatement)
      i += batch.length
      try {
        await write(batch)
      } finally {
        held -= batch.reduce((sum, op) => sum + searchOpRows(op), 0)
      }
      // Other requests (a lead's statement among them) are served between two statements of a burst.
      if (i < taken.length) await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  return {
    push(op) {
      const rows = searchOpRows(op)
      if (held + rows > maxHeld) {
        op.done.reject(
          new LedgerError(
            'recordSearchEvents',
            SEARCH_EVENTS_OVERFLOW,
            true,
            `more than ${maxHeld} rows waiting`,
          ),
        )
        return
      }
      held += rows
      waiting.push(op)
      schedule()
    },
    async drain() {
      while (writing || waiting.length > 0) await start()
    },
  }
}

/** The operations from `from` that one statement writes: at least one, then as many as fit `maxRows`. */
function statementOf(ops: readonly SearchOp[], from: number, maxRows: number): SearchOp[] {
  let rows = 0
  let end = from
  while (end < ops.length) {
    rows += searchOpRows(ops[end] as SearchOp)
    if (end > from && rows > maxRows) break
    end++
  }
  return ops.slice(from, end)
}
