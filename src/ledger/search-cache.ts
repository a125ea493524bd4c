/**
 * @module Second-look polls served from memory: at most one ledger read per search per `ttlMs` (a second)
 * in this process however many pollers ask, concurrent asks sharing the read in flight. A settled search
 * never changes, so it stays until evicted. When the ledger fails, the last snapshot read is served rather
 * than an error (the widget keeps its progress); with none, the error goes to the caller.
 */

import type { Timers } from '../http/timers.ts'
import type { Ledger } from './ledger-store.ts'
import type { SearchSnapshot } from './types.ts'

export interface SearchCache {
  get(searchUuid: string): Promise<SearchSnapshot | undefined>
  /**
   * A search this process just created, as it was written: its first polls are then answered from memory
   * when the ledger is cut right after, instead of a 503 (the next read refreshes it as usual).
   */
  remember(snapshot: SearchSnapshot): void
  /** Ledger reads made so far: the figure behind "one read per search per second". */
  readonly reads: number
}

interface Entry {
  /** When the read behind `value` started. */
  at: number
  value: SearchSnapshot | undefined
  inFlight?: Promise<SearchSnapshot | undefined> | undefined
  /** False until a read has answered. */
  loaded: boolean
}

export function createSearchCache(
  ledger: Pick<Ledger, 'getSearch'>,
  options: { timers: Timers; ttlMs?: number; maxEntries?: number },
): SearchCache {
  const ttlMs = options.ttlMs ?? 1_000
  const maxEntries = options.maxEntries ?? 10_000
  const entries = new Map<string, Entry>()
  let reads = 0

  const settled = (value: SearchSnapshot | undefined) =>
    value !== undefined && value.lead.status !== 'pending'

  function read(searchUuid: string, entry: Entry): Promise<SearchSnapshot | undefined> {
    reads++
    entry.at = options.timers.now()
    const inFlight = ledger.getSearch(searchUuid).then(
      (value) => {
        entry.value = value
        entry.loaded = true
        return value
      },
      (error: unknown) => {
        if (entry.loaded) return entry.value
        entries.delete(searchUuid)
        throw error
      },
    )
    entry.inFlight = inFlight
    void inFlight
      .finally(() => {
        if (entry.inFlight === inFlight) entry.inFlight = undefined
      })
      .catch(() => {})
    return inFlight
  }

  /** The entry of a search, made most recent; the least recently used one goes past `maxEntries`. */
  function touch(searchUuid: string): Entry {
    let entry = entries.get(searchUuid)
    if (entry === undefined) {
      entry = { at: 0, value: undefined, loaded: false }
      entries.set(searchUuid, entry)
      // Oldest first: a Map iterates in insertion order, and hits below re-insert.
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value
        if (oldest !== undefined) entries.delete(oldest)
      }
    } else {
      entries.delete(searchUuid)
      entries.set(searchUuid, entry)
    }
    return entry
  }

  return {
    remember(snapshot) {
      const entry = touch(snapshot.lead.searchUuid)
      entry.value = snapshot
      entry.loaded = true
      // Not a read: the next poll still reads the ledger, and falls back on this only when that fails.
      entry.at = Number.NEGATIVE_INFINITY
    },
    get(searchUuid) {
      const entry = touch(searchUuid)
      if (entry.inFlight) return entry.inFlight
      if (entry.loaded && (settled(entry.value) || options.timers.now() - entry.at < ttlMs)) {
        return Promise.resolve(entry.value)
      }
      return read(searchUuid, entry)
    },
    get reads() {
      return reads
    },
  }
}
