/**
 * @module What the BFF records of its insurance searches for the placements report (docs/placements.md):
 * created (with its placement), completed (the first final rate table it serves), and the widget's measure.
 * Recording never waits on the ledger and never fails a search or a poll: events go to the ledger's write
 * batch in the background (they share its flushes), a refusal is counted and logged without the search's
 * data, and without a ledger (`sink` absent) they are only counted as `unrecorded`.
 */

import type { Timers } from '../http/timers.ts'
import { LedgerError, type SearchEvent } from '../ledger/index.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'

export type SearchEventSink = (events: readonly SearchEvent[]) => Promise<void>

/** An event as a caller gives it; the log stamps its time. */
export type SearchEventInput = SearchEvent extends infer E
  ? E extends SearchEvent
    ? Omit<E, 'at'>
    : never
  : never

export interface SearchLog {
  /** Queues `event`, stamped now; returns at once. */
  record(event: SearchEventInput): void
  /**
   * Called with each rate table text the BFF serves for `uuid`: records `completed` the first time one is
   * final (no partner pending). Free for a rate table still pending: one scan for an empty `pendingResponses`.
   */
  served(uuid: string, rateTableJson: string): void
  /** The widget showed these offers of search `uuid`; offers this process already queued are left out. */
  shown(uuid: string, offerIds: readonly string[]): void
  /** The widget's visitor clicked this offer; once per search and offer. */
  clicked(uuid: string, offerId: string): void
}

/** Keys remembered (search completed, offer shown, offer clicked) before the memory starts over. */
const MAX_REMEMBERED = 10_000
const EMPTY_PENDING = /"pendingResponses"\s*:\s*\[\s*\]/

export function createSearchLog(deps: {
  sink: SearchEventSink | undefined
  logger: Pick<Logger, 'warn'>
  metrics: Pick<BffMetrics, 'searchEvents'>
  timers: Pick<Timers, 'now'>
}): SearchLog {
  const { sink, logger, metrics, timers } = deps
  // What this process already queued, so a repeated poll or measure writes nothing (the ledger would ignore it
  // too); bounded, and forgotten whole when full (a repeat after that is a no-op write).
  let seen = new Set<string>()
  const firstTime = (key: string): boolean => {
    if (seen.has(key)) return false
    if (seen.size >= MAX_REMEMBERED) seen = new Set()
    seen.add(key)
    return true
  }

  function record(input: SearchEventInput): void {
    const event = { ...input, at: new Date(timers.now()) } as SearchEvent
    if (event.kind === 'created' && event.completed) firstTime(`${event.searchUuid} completed`)
    if (!sink) {
      metrics.searchEvents.inc({ kind: event.kind, outcome: 'unrecorded' })
      return
    }
    metrics.searchEvents.inc({ kind: event.kind, outcome: 'queued' })
    sink([event]).catch((error: unknown) => {
      metrics.searchEvents.inc({ kind: event.kind, outcome: 'failed' })
      // No uuid, placement or offer: the code says what failed, the metric how often.
      const code = error instanceof LedgerError ? error.code : 'unknown'
      logger.warn({ kind: event.kind, code }, 'placements: the ledger did not record a search event')
    })
  }

  return {
    record,
    served(uuid, json) {
      if (seen.has(`${uuid} completed`) || !EMPTY_PENDING.test(json)) return
      // The scan could match a key nested in an offer; the parse (once per search) says for sure.
      if (!isFinal(json) || !firstTime(`${uuid} completed`)) return
      record({ kind: 'completed', searchUuid: uuid })
    },
    shown(uuid, offerIds) {
      const fresh = [...new Set(offerIds)].filter((id) => firstTime(`${uuid} shown ${id}`))
      if (fresh.length > 0) record({ kind: 'shown', searchUuid: uuid, offerIds: fresh })
    },
    clicked(uuid, offerId) {
      if (firstTime(`${uuid} clicked ${offerId}`)) record({ kind: 'clicked', searchUuid: uuid, offerId })
    },
  }
}

/** A rate table with no partner pending: the list is final. */
function isFinal(json: string): boolean {
  try {
    const table: unknown = JSON.parse(json)
    const pending = (table as { pendingResponses?: unknown }).pendingResponses
    return Array.isArray(pending) && pending.length === 0
  } catch {
    return false
  }
}
