/**
 * @module What the BFF records of its insurance searches for the placements report (docs/placements.md):
 * created (with its placement), completed (the first final rate table it serves), and the widget's measure,
 * which counts only offers the BFF served for that search (`served-offers.ts`), each once. Recording never
 * waits on the ledger and never fails a search or a poll: events go to the ledger's search-event queue in the
 * background, a refusal is counted and logged without the search's data (a full queue is counted only), and
 * without a ledger (`sink` absent) they are only counted as `unrecorded`.
 */

import type { Timers } from '../http/timers.ts'
import { LedgerError, type SearchEvent } from '../ledger/index.ts'
import { SEARCH_EVENTS_OVERFLOW } from '../ledger/search-event-queue.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'
import type { ServedOffers } from './served-offers.ts'

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
   * Called with each rate table text the BFF serves for `uuid` (the create's and each poll's): remembers its
   * offers as served, and records `completed` the first time one is final (no partner pending). A text the
   * same as the last one served for `uuid` costs a comparison; another is parsed once.
   */
  served(uuid: string, rateTableJson: string): void
  /**
   * The widget showed these offers of search `uuid`: those served for it and not already queued by this
   * process are recorded; the others are counted and dropped. Resolves once judged; never rejects.
   */
  shown(uuid: string, offerIds: readonly string[]): Promise<void>
  /** The widget's visitor clicked this offer: recorded once per search and offer, if it was served. */
  clicked(uuid: string, offerId: string): Promise<void>
}

/** Keys remembered (search completed, offer shown, offer clicked) before the memory starts over. */
const MAX_REMEMBERED = 10_000
/** The last rate table text served per search, for the searches served most recently. */
const MAX_LAST_SERVED = 1_000

export function createSearchLog(deps: {
  sink: SearchEventSink | undefined
  logger: Pick<Logger, 'warn'>
  metrics: Pick<BffMetrics, 'searchEvents' | 'measuredOffers'>
  timers: Pick<Timers, 'now'>
  /** The offers served per search: what a measure may count. */
  served: ServedOffers
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
  const lastServed = lastServedTables()

  function record(input: SearchEventInput): void {
    const event = { ...input, at: new Date(timers.now()) } as SearchEvent
    if (event.kind === 'created' && event.completed) firstTime(`${event.searchUuid} completed`)
    if (!sink) {
      metrics.searchEvents.inc({ kind: event.kind, outcome: 'unrecorded' })
      return
    }
    metrics.searchEvents.inc({ kind: event.kind, outcome: 'queued' })
    sink([event]).catch((error: unknown) => {
      const code = error instanceof LedgerError ? error.code : 'unknown'
      // A full queue is counted, not logged: a flood would otherwise be a flood of log lines.
      if (code === SEARCH_EVENTS_OVERFLOW) {
        metrics.searchEvents.inc({ kind: event.kind, outcome: 'dropped' })
        return
      }
      metrics.searchEvents.inc({ kind: event.kind, outcome: 'failed' })
      // No uuid, placement or offer: the code says what failed, the metric how often.
      logger.warn({ kind: event.kind, code }, 'placements: the ledger did not record a search event')
    })
  }

  /** Of `offerIds` measured as `kind`: the served ones not queued before; the others counted and dropped. */
  async function countable(kind: 'shown' | 'clicked', uuid: string, offerIds: readonly string[]) {
    const named = [...new Set(offerIds)]
    const served = await deps.served.known(uuid, named)
    const fresh = served.filter((id) => firstTime(`${uuid} ${kind} ${id}`))
    const count = (outcome: 'unserved' | 'repeat' | 'counted', n: number) => {
      if (n > 0) metrics.measuredOffers.inc({ kind, outcome }, n)
    }
    count('unserved', named.length - served.length)
    count('repeat', served.length - fresh.length)
    count('counted', fresh.length)
    return fresh
  }

  return {
    record,
    served(uuid, json) {
      const table = lastServed.changed(uuid, json)
      if (table === undefined) return
      deps.served.add(uuid, table.offerIds)
      if (table.final && firstTime(`${uuid} completed`)) record({ kind: 'completed', searchUuid: uuid })
    },
    async shown(uuid, offerIds) {
      const fresh = await countable('shown', uuid, offerIds)
      if (fresh.length > 0) record({ kind: 'shown', searchUuid: uuid, offerIds: fresh })
    },
    async clicked(uuid, offerId) {
      const fresh = await countable('clicked', uuid, [offerId])
      if (fresh.length > 0) record({ kind: 'clicked', searchUuid: uuid, offerId })
    },
  }
}

/**
 * The last rate table text served per search (bounded, the oldest forgotten first): `changed` parses a text
 * only when it differs from the one before, and answers what the log needs of it.
 */
function lastServedTables() {
  const last = new Map<string, string>()
  return {
    changed(uuid: string, json: string): { offerIds: string[]; final: boolean } | undefined {
      if (last.get(uuid) === json) return undefined
      last.delete(uuid)
      last.set(uuid, json)
      if (last.size > MAX_LAST_SERVED) last.delete(last.keys().next().value as string)
      return servedTable(json)
    },
  }
}

/** A served rate table's offer uuids, and whether it is final (no partner pending). */
function servedTable(json: string): { offerIds: string[]; final: boolean } {
  try {
    const table = JSON.parse(json) as { offers?: unknown; pendingResponses?: unknown }
    const offers = Array.isArray(table.offers) ? (table.offers as Array<{ uuid?: unknown }>) : []
    return {
      offerIds: offers.flatMap((offer) => (typeof offer?.uuid === 'string' ? [offer.uuid] : [])),
      final: Array.isArray(table.pendingResponses) && table.pendingResponses.length === 0,
    }
  } catch {
    return { offerIds: [], final: false }
  }
}
