/**
 * @module In-memory rate table records. A record holds only what is needed to derive the rate table at
 * any instant (creation time, scenario, seed), so there are no timers and memory stays small; records
 * expire after a TTL and the oldest go first past a cap.
 */
import type { Scenario } from './scenarios.ts'

export type Environment = 'test' | 'production'
export const ENVIRONMENTS: readonly Environment[] = ['test', 'production']

export interface RateTableRecord {
  uuid: string
  leadUuid: string
  /** docs/offer-search-api.md: a uuid is "Valid only in the environment that created it". */
  environment: Environment
  createdAtMs: number
  scenario: Scenario
  /** Seeds the offer fixtures, so every poll shows the same uuids and copy. */
  seed: number
  /** Absolute base of pixel, logo and landing URLs, fixed at creation. */
  publicBase: string
  /** Last poll let through by the once-per-second limit. */
  lastPollAtMs: number | undefined
  /** Polls let through so far; scenario failures cycle their statuses by it. */
  pollCount: number
}

export interface RateTableStoreOptions {
  maxEntries: number
  ttlMs: number
}

export interface RateTableStore {
  add(record: RateTableRecord, nowMs: number): void
  get(uuid: string, nowMs: number): RateTableRecord | undefined
  size(): number
  clear(): void
}

export function createRateTableStore({ maxEntries, ttlMs }: RateTableStoreOptions): RateTableStore {
  // A Map iterates in insertion order, which is creation order: the oldest record is always first.
  const records = new Map<string, RateTableRecord>()
  const expired = (record: RateTableRecord, nowMs: number) => nowMs - record.createdAtMs >= ttlMs

  function evict(nowMs: number) {
    for (const [uuid, record] of records) {
      if (records.size <= maxEntries && !expired(record, nowMs)) break
      records.delete(uuid)
    }
  }

  return {
    add(record, nowMs) {
      records.set(record.uuid, record)
      evict(nowMs)
    },
    get(uuid, nowMs) {
      const record = records.get(uuid.toLowerCase())
      if (record && expired(record, nowMs)) {
        records.delete(record.uuid)
        return undefined
      }
      return record
    },
    size: () => records.size,
    clear: () => records.clear(),
  }
}
