/**
 * @module Poll coalescing. docs/offer-search-api.md allows "no more than about once per second per rate table", while any
 * number of tabs and replicas may poll: concurrent polls share one upstream call, and a poll within a
 * second of the last answer gets that answer (errors included, so a failing upstream is not hammered).
 * In memory by default; with Redis, a 1 s lease per uuid and a shared snapshot hold it across replicas.
 */

import { MAX_RETRY_AFTER_MS } from '../contract/retry-after.ts'
import { sleepOn, systemTimers, type Timers } from '../http/timers.ts'
import { annotate } from '../http/trace.ts'
import type { BffMetrics } from './metrics.ts'
import type { RedisLink } from './redis-link.ts'
import { every as defaultEvery, type Every } from './redis-link.ts'
import { UpstreamError, type UpstreamErrorKind } from './upstream/index.ts'

/** A poll answered without its own upstream call: counted, and named on the poll's span. */
function countCoalesced(metrics: BffMetrics | undefined, source: 'snapshot' | 'in_flight' | 'redis'): void {
  metrics?.coalescedPolls.inc({ source })
  annotate({ 'offer_search.coalesced': source })
}

export interface PollCoalescer {
  /**
   * The JSON text of the rate table of `uuid` (validated by the contract when it was fetched), fetched
   * upstream at most once per interval; rejects with `UpstreamError`. Text, so a coalesced poll costs a
   * lookup and a write, never another serialisation.
   */
  get(uuid: string): Promise<string>
  /** Snapshots held in this process (expired ones go at the next sweep). */
  size(): number
  /** Stops the sweep timer. */
  close(): void
}

/**
 * The validated JSON text of a rate table. `previousJson` is this uuid's last validated text, if this
 * process still holds it: an identical answer need not be parsed or checked again.
 */
export type FetchRateTable = (uuid: string, previousJson?: string) => Promise<string>

type Outcome =
  | { ok: true; json: string }
  | { ok: false; kind: UpstreamErrorKind; message: string; retryAfterMs?: number }

export interface CoalescerOptions {
  fetch: FetchRateTable
  /** The clock of snapshots, leases and a waiting replica's checks; default `systemTimers`. */
  timers?: Timers
  /** Minimum time between upstream polls of one rate table; docs/offer-search-api.md's "once per second". */
  intervalMs?: number
  metrics?: BffMetrics
  /** In-memory snapshots kept at most; expired ones are swept first. */
  maxEntries?: number
  /** Expired snapshots are dropped this often, so memory follows the live searches, not the past ones. */
  sweepEveryMs?: number
  every?: Every
}

export interface RedisCoalescerOptions extends CoalescerOptions {
  link: RedisLink
  keyPrefix?: string
  /** How long a replica waits for another replica's snapshot before answering 503. */
  waitMs?: number
  /** How often a waiting replica looks for the snapshot. */
  checkEveryMs?: number
  /**
   * How long the lease is held while its upstream poll is in flight (then renewed from the answer for one
   * interval): a slow answer must not let another replica start a second poll meanwhile. Default 5 s, the
   * upstream request timeout.
   */
  leaseMs?: number
}

function toOutcome(error: unknown): Outcome {
  if (error instanceof UpstreamError) {
    return { ok: false, kind: error.kind, message: error.message, retryAfterMs: error.details.retryAfterMs }
  }
  return { ok: false, kind: 'unexpected', message: error instanceof Error ? error.message : String(error) }
}

/**
 * How long an outcome stands in for the upstream: a 429 for as long as it asked (never past
 * `MAX_RETRY_AFTER_MS`: one bad header must not refuse a search for a day), anything else one interval.
 */
function holdMs(outcome: Outcome, intervalMs: number): number {
  return !outcome.ok && outcome.kind === 'rate_limited'
    ? Math.min(MAX_RETRY_AFTER_MS, Math.max(intervalMs, outcome.retryAfterMs ?? intervalMs))
    : intervalMs
}

function unwrap(outcome: Outcome, remainingMs: number): string {
  if (outcome.ok) return outcome.json
  const retryAfterMs = outcome.kind === 'rate_limited' ? remainingMs : outcome.retryAfterMs
  throw new UpstreamError(outcome.kind, outcome.message, { retryAfterMs })
}

interface Entry {
  until: number
  outcome: Outcome
}

/** The in-process layer, shared by both variants: one in-flight call and one snapshot per uuid. */
function createLocalLayer(
  source: (uuid: string, previousJson: string | undefined) => Promise<{ outcome: Outcome; holdMs: number }>,
  options: CoalescerOptions,
): PollCoalescer {
  const { metrics } = options
  const timers = options.timers ?? systemTimers
  const now = () => timers.now()
  const maxEntries = options.maxEntries ?? 10_000
  const snapshots = new Map<string, Entry>()
  const inFlight = new Map<string, Promise<Entry>>()

  function sweep() {
    const t = now()
    for (const [key, value] of snapshots) if (value.until <= t) snapshots.delete(key)
  }
  const stopSweep = (options.every ?? defaultEvery)(sweep, options.sweepEveryMs ?? 5000)

  function remember(uuid: string, entry: Entry) {
    snapshots.delete(uuid)
    snapshots.set(uuid, entry)
    if (snapshots.size <= maxEntries) return
    sweep()
    // Still full: drop the oldest insertions (Map keeps insertion order).
    for (const key of snapshots.keys()) {
      if (snapshots.size <= maxEntries) break
      snapshots.delete(key)
    }
  }

  function settle(pending: Promise<Entry>): Promise<string> {
    return pending.then((entry) => unwrap(entry.outcome, entry.until - now()))
  }

  return {
    get(uuid) {
      const cached = snapshots.get(uuid)
      if (cached !== undefined) {
        const remaining = cached.until - now()
        if (remaining > 0) {
          countCoalesced(metrics, 'snapshot')
          // Already settled: answered without a promise chain per poll.
          try {
            return Promise.resolve(unwrap(cached.outcome, remaining))
          } catch (error) {
            return Promise.reject(error)
          }
        }
      }
      let pending = inFlight.get(uuid)
      if (pending) {
        countCoalesced(metrics, 'in_flight')
        return settle(pending)
      }
      // An expired snapshot not yet swept still saves the next answer's validation when it is unchanged.
      const previousJson = cached?.outcome.ok ? cached.outcome.json : undefined
      pending = source(uuid, previousJson).then(
        ({ outcome, holdMs }) => {
          const entry = { until: now() + holdMs, outcome }
          remember(uuid, entry)
          inFlight.delete(uuid)
          return entry
        },
        (error: unknown) => {
          inFlight.delete(uuid)
          return { until: now(), outcome: toOutcome(error) }
        },
      )
      inFlight.set(uuid, pending)
      return settle(pending)
    },
    size: () => snapshots.size,
    close: stopSweep,
  }
}

const fetchOutcome = (fetch: FetchRateTable, uuid: string, previousJson: string | undefined) =>
  fetch(uuid, previousJson).then((json): Outcome => ({ ok: true, json }), toOutcome)

export function createMemoryCoalescer(options: CoalescerOptions): PollCoalescer {
  const intervalMs = options.intervalMs ?? 1000
  return createLocalLayer(async (uuid, previousJson) => {
    const outcome = await fetchOutcome(options.fetch, uuid, previousJson)
    return { outcome, holdMs: holdMs(outcome, intervalMs) }
  }, options)
}

/**
 * A snapshot as stored in Redis: `1 <uuid> <rate table JSON>` or `0 <error outcome JSON>`. The rate table
 * text is stored and served as it is, never parsed or re-serialised per poll; the uuid beside it is checked
 * so a snapshot is never served for another rate table.
 */
function encodeSnapshot(uuid: string, outcome: Outcome): string {
  return outcome.ok ? `1 ${uuid} ${outcome.json}` : `0 ${JSON.stringify(outcome)}`
}

function decodeSnapshot(uuid: string, text: string): Outcome | undefined {
  if (text.startsWith('1 ')) {
    const end = text.indexOf(' ', 2)
    if (end < 0 || text.slice(2, end) !== uuid) return undefined
    return { ok: true, json: text.slice(end + 1) }
  }
  if (text.startsWith('0 ')) {
    try {
      return JSON.parse(text.slice(2)) as Outcome
    } catch {
      return undefined
    }
  }
  return undefined
}

/**
 * Across replicas: the replica that wins `SET lock NX PX lease` polls upstream and stores the outcome
 * under `snap` with the same hold, renewing the lease from the answer for that hold; the lease is never released early,
 * so two upstream polls of one rate table always start at least `interval` apart. Others read the snapshot, waiting briefly for it. While
 * the link says Redis is unavailable, or as soon as a command fails, the replica coalesces in process
 * only: no request waits on Redis.
 */
export function createRedisCoalescer(options: RedisCoalescerOptions): PollCoalescer {
  const { link, metrics } = options
  const redis = link.client
  const timers = options.timers ?? systemTimers
  const intervalMs = options.intervalMs ?? 1000
  const waitMs = options.waitMs ?? 3000
  const checkEveryMs = options.checkEveryMs ?? 25
  const leaseMs = Math.max(intervalMs, options.leaseMs ?? 5000)
  const prefix = options.keyPrefix ?? 'offer-widget:'

  async function local(uuid: string, previousJson: string | undefined) {
    const outcome = await fetchOutcome(options.fetch, uuid, previousJson)
    return { outcome, holdMs: holdMs(outcome, intervalMs) }
  }

  async function shared(
    uuid: string,
    previousJson: string | undefined,
  ): Promise<{ outcome: Outcome; holdMs: number }> {
    const snapKey = `${prefix}poll:${uuid}:snap`
    const lockKey = `${prefix}poll:${uuid}:lock`
    const deadline = timers.now() + waitMs
    for (;;) {
      if (!link.available()) return local(uuid, previousJson)
      let found: [string | null, number]
      try {
        const replies = await redis.multi().get(snapKey).pttl(snapKey).exec()
        found = [(replies?.[0]?.[1] as string | null) ?? null, Number(replies?.[1]?.[1] ?? -2)]
      } catch (error) {
        link.failed(error)
        return local(uuid, previousJson)
      }
      const [text, ttl] = found
      if (text !== null && ttl > 0) {
        const outcome = decodeSnapshot(uuid, text)
        if (outcome !== undefined) {
          countCoalesced(metrics, 'redis')
          // A snapshot written by an older replica may ask for longer; the cap holds here too.
          return { outcome, holdMs: Math.min(ttl, MAX_RETRY_AFTER_MS) }
        }
      }
      let acquired: string | null
      try {
        acquired = await redis.set(lockKey, '1', 'PX', leaseMs, 'NX')
      } catch (error) {
        link.failed(error)
        return local(uuid, previousJson)
      }
      if (acquired === 'OK') {
        const outcome = await fetchOutcome(options.fetch, uuid, previousJson)
        const hold = holdMs(outcome, intervalMs)
        // The lease is renewed from the answer: the next upstream poll starts a full hold after this one
        // was answered, however late this request reached the upstream (an upstream that counts a second
        // between arrivals never sees two polls closer). Stored without waiting; a failure marks the link.
        redis
          .multi()
          .set(snapKey, encodeSnapshot(uuid, outcome), 'PX', hold)
          .set(lockKey, '1', 'PX', hold)
          .exec()
          .catch(link.failed)
        return { outcome, holdMs: hold }
      }
      if (timers.now() >= deadline) {
        return {
          outcome: {
            ok: false,
            kind: 'unavailable',
            message: 'timed out waiting for a shared poll',
            retryAfterMs: 1000,
          },
          holdMs: 0,
        }
      }
      await sleepOn(timers, checkEveryMs)
    }
  }

  return createLocalLayer(shared, options)
}
