/**
 * @module Poll coalescing. Seed 000 allows "no more than about once per second per rate table", while any
 * number of tabs and replicas may poll: concurrent polls share one upstream call, and a poll within a
 * second of the last answer gets that answer (errors included, so a failing upstream is not hammered).
 * In memory by default; with Redis, a 1 s lease per uuid and a shared snapshot hold it across replicas.
 */
import type { Redis } from 'ioredis'
import type { RateTable } from '../contract/offer-search.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'
import { UpstreamError, type UpstreamErrorKind } from './upstream.ts'

export interface PollCoalescer {
  /** The rate table of `uuid`, fetched upstream at most once per interval; rejects with `UpstreamError`. */
  get(uuid: string): Promise<RateTable>
}

export type FetchRateTable = (uuid: string) => Promise<RateTable>

type Outcome =
  | { ok: true; value: RateTable }
  | { ok: false; kind: UpstreamErrorKind; message: string; retryAfterMs?: number }

export interface CoalescerOptions {
  fetch: FetchRateTable
  now?: () => number
  /** Minimum time between upstream polls of one rate table; seed 000's "once per second". */
  intervalMs?: number
  metrics?: BffMetrics
  /** In-memory snapshots kept at most; expired ones are swept first. */
  maxEntries?: number
}

export interface RedisCoalescerOptions extends CoalescerOptions {
  redis: Redis
  keyPrefix?: string
  logger: Logger
  sleep?: (ms: number) => Promise<void>
  /** How long a replica waits for another replica's snapshot before answering 503. */
  waitMs?: number
  /** How often a waiting replica looks for the snapshot. */
  checkEveryMs?: number
}

function toOutcome(error: unknown): Outcome {
  if (error instanceof UpstreamError) {
    return { ok: false, kind: error.kind, message: error.message, retryAfterMs: error.details.retryAfterMs }
  }
  return { ok: false, kind: 'unexpected', message: error instanceof Error ? error.message : String(error) }
}

/** How long an outcome stands in for the upstream: a 429 for as long as it asked, anything else one interval. */
function holdMs(outcome: Outcome, intervalMs: number): number {
  return !outcome.ok && outcome.kind === 'rate_limited'
    ? Math.max(intervalMs, outcome.retryAfterMs ?? intervalMs)
    : intervalMs
}

function unwrap(outcome: Outcome, remainingMs: number): RateTable {
  if (outcome.ok) return outcome.value
  const retryAfterMs = outcome.kind === 'rate_limited' ? remainingMs : outcome.retryAfterMs
  throw new UpstreamError(outcome.kind, outcome.message, { retryAfterMs })
}

interface Entry {
  until: number
  outcome: Outcome
}

/** The in-process layer, shared by both variants: one in-flight call and one snapshot per uuid. */
function createLocalLayer(
  source: (uuid: string) => Promise<{ outcome: Outcome; holdMs: number }>,
  options: { now: () => number; metrics?: BffMetrics; maxEntries: number },
) {
  const { now, metrics, maxEntries } = options
  const snapshots = new Map<string, Entry>()
  const inFlight = new Map<string, Promise<Entry>>()

  function remember(uuid: string, entry: Entry) {
    snapshots.delete(uuid)
    snapshots.set(uuid, entry)
    if (snapshots.size <= maxEntries) return
    const t = now()
    for (const [key, value] of snapshots) if (value.until <= t) snapshots.delete(key)
    // Still full: drop the oldest insertions (Map keeps insertion order).
    for (const key of snapshots.keys()) {
      if (snapshots.size <= maxEntries) break
      snapshots.delete(key)
    }
  }

  return async function get(uuid: string): Promise<RateTable> {
    const cached = snapshots.get(uuid)
    if (cached && now() < cached.until) {
      metrics?.coalescedPolls.inc({ source: 'snapshot' })
      return unwrap(cached.outcome, cached.until - now())
    }
    let pending = inFlight.get(uuid)
    if (pending) {
      metrics?.coalescedPolls.inc({ source: 'in_flight' })
    } else {
      pending = source(uuid).then(
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
    }
    const entry = await pending
    return unwrap(entry.outcome, entry.until - now())
  }
}

export function createMemoryCoalescer(options: CoalescerOptions): PollCoalescer {
  const now = options.now ?? Date.now
  const intervalMs = options.intervalMs ?? 1000
  const get = createLocalLayer(
    async (uuid) => {
      const outcome = await options.fetch(uuid).then((value): Outcome => ({ ok: true, value }), toOutcome)
      return { outcome, holdMs: holdMs(outcome, intervalMs) }
    },
    { now, metrics: options.metrics, maxEntries: options.maxEntries ?? 10_000 },
  )
  return { get }
}

/**
 * Across replicas: the replica that wins `SET lock NX PX interval` polls upstream and stores the outcome
 * under `snap` with the same hold; the lease is never released early, so two upstream polls of one rate
 * table always start at least `interval` apart. Others read the snapshot, waiting briefly for it. If Redis
 * fails, the replica falls back to its own in-process coalescing and logs it.
 */
export function createRedisCoalescer(options: RedisCoalescerOptions): PollCoalescer {
  const { redis, logger, metrics } = options
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const intervalMs = options.intervalMs ?? 1000
  const waitMs = options.waitMs ?? 3000
  const checkEveryMs = options.checkEveryMs ?? 25
  const prefix = options.keyPrefix ?? 'offer-widget:'
  const fetchOutcome = (uuid: string) =>
    options.fetch(uuid).then((value): Outcome => ({ ok: true, value }), toOutcome)

  async function shared(uuid: string): Promise<{ outcome: Outcome; holdMs: number }> {
    const snapKey = `${prefix}poll:${uuid}:snap`
    const lockKey = `${prefix}poll:${uuid}:lock`
    const deadline = now() + waitMs
    for (;;) {
      let found: [string | null, number] | undefined
      try {
        const replies = await redis.multi().get(snapKey).pttl(snapKey).exec()
        found = [(replies?.[0]?.[1] as string | null) ?? null, Number(replies?.[1]?.[1] ?? -2)]
      } catch (error) {
        return fallback(uuid, error)
      }
      const [text, ttl] = found
      if (text !== null && ttl > 0) {
        const outcome = JSON.parse(text) as Outcome
        // Never serve a snapshot stored for another rate table.
        if (!outcome.ok || outcome.value.uuid === uuid) {
          metrics?.coalescedPolls.inc({ source: 'redis' })
          return { outcome, holdMs: ttl }
        }
      }
      let acquired: string | null
      try {
        acquired = await redis.set(lockKey, '1', 'PX', intervalMs, 'NX')
      } catch (error) {
        return fallback(uuid, error)
      }
      if (acquired === 'OK') {
        const outcome = await fetchOutcome(uuid)
        const hold = holdMs(outcome, intervalMs)
        try {
          await redis.set(snapKey, JSON.stringify(outcome), 'PX', hold)
        } catch (error) {
          logger.warn({ err: error }, 'redis: could not store a poll snapshot')
        }
        return { outcome, holdMs: hold }
      }
      if (now() >= deadline) {
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
      await sleep(checkEveryMs)
    }
  }

  async function fallback(uuid: string, error: unknown) {
    logger.warn({ err: error }, 'redis unavailable: coalescing polls in this process only')
    const outcome = await fetchOutcome(uuid)
    return { outcome, holdMs: holdMs(outcome, intervalMs) }
  }

  const get = createLocalLayer(shared, { now, metrics, maxEntries: options.maxEntries ?? 10_000 })
  return { get }
}
