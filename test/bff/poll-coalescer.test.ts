/**
 * @module Poll coalescing with an injected clock. docs/offer-search-api.md Limits: "Polling cadence: no more than about
 * once per second per rate table"; the BFF holds it however many tabs (or replicas, with Redis) poll.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { createMetrics } from '../../src/bff/metrics.ts'
import {
  createMemoryCoalescer,
  createRedisCoalescer,
  type FetchRateTable,
  type PollCoalescer,
} from '../../src/bff/poll-coalescer.ts'
import { watchRedis } from '../../src/bff/redis-link.ts'
import { UpstreamError } from '../../src/bff/upstream/index.ts'
import type { RateTable } from '../../src/contract/offer-search.ts'
import type { Timers } from '../../src/http/timers.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { signal } from '../support/promises.ts'
import { announceSkip, unsetVariable } from '../support/skip-notice.ts'
import { rateTable as plainRateTable } from './support/fake-upstream.ts'

/** A fetched rate table as the upstream client hands it on: its validated text. */
function rateTable(uuid: string, pending?: number): string {
  return JSON.stringify(plainRateTable(uuid, pending))
}

/** The coalescer answers JSON text; the assertions read it. */
const table = async (answer: Promise<string> | undefined) => JSON.parse((await answer) as string) as RateTable

/** Periodic work the tests tick by hand. */
function manualTimers() {
  const tasks = new Set<() => void>()
  return {
    every: (task: () => void) => {
      tasks.add(task)
      return () => tasks.delete(task)
    },
    tick: () => {
      for (const task of tasks) task()
    },
    get count() {
      return tasks.size
    },
  }
}

const A = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'
const B = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e40'

/** An upstream whose answers the test releases; counts calls per uuid. */
function controlledUpstream() {
  const calls: string[] = []
  const pending: Array<{
    uuid: string
    resolve: (t: string) => void
    reject: (e: unknown) => void
  }> = []
  const fetch: FetchRateTable = (uuid) =>
    new Promise((resolve, reject) => {
      calls.push(uuid)
      pending.push({ uuid, resolve, reject })
    })
  const releaseAll = (pendingCount = 0) => {
    for (const call of pending.splice(0)) call.resolve(rateTable(call.uuid, pendingCount))
  }
  return { calls, pending, fetch, releaseAll }
}

/** Time that stands still: a wait only yields one turn of the event loop, so no wall clock in the test. */
const stillTimers: Timers = {
  now: () => 0,
  setTimeout: (callback) => setImmediate(callback),
  clearTimeout: (handle) => clearImmediate(handle as ReturnType<typeof setImmediate>),
}

describe('memory coalescer', () => {
  it('shares one upstream call among 200 concurrent polls', async () => {
    const upstream = controlledUpstream()
    const metrics = createMetrics()
    const coalescer = createMemoryCoalescer({
      fetch: upstream.fetch,
      timers: createFakeClock({ start: 0, stepping: true }).timers,
      metrics,
    })
    const polls = Array.from({ length: 200 }, () => coalescer.get(A))
    upstream.releaseAll()
    const tables = await Promise.all(polls.map(table))
    expect(upstream.calls).toEqual([A])
    expect(new Set(tables.map((t) => t.uuid))).toEqual(new Set([A]))
    expect((await metrics.coalescedPolls.get()).values.reduce((n, v) => n + v.value, 0)).toBe(199)
  })

  it('serves the last snapshot within the second, and polls again once it has passed', async () => {
    const clock = createFakeClock({ start: 10_000, stepping: true })
    const upstream = controlledUpstream()
    const coalescer = createMemoryCoalescer({ fetch: upstream.fetch, timers: clock.timers })
    const first = coalescer.get(A)
    upstream.releaseAll(2)
    await first
    clock.advance(999)
    expect((await table(coalescer.get(A))).pendingResponses).toHaveLength(2)
    expect(upstream.calls).toHaveLength(1)
    clock.advance(1)
    const next = coalescer.get(A)
    upstream.releaseAll(0)
    expect((await table(next)).pendingResponses).toHaveLength(0)
    expect(upstream.calls).toHaveLength(2)
  })

  it("hands the upstream the last answer's text, so an unchanged rate table is not validated again", async () => {
    const clock = createFakeClock({ start: 0, stepping: true })
    const seen: Array<string | undefined> = []
    const coalescer = createMemoryCoalescer({
      timers: clock.timers,
      fetch: async (uuid, previousJson) => {
        seen.push(previousJson)
        return rateTable(uuid, 1)
      },
    })
    await coalescer.get(A)
    clock.advance(1000)
    await coalescer.get(A)
    expect(seen).toEqual([undefined, rateTable(A, 1)])
  })

  it('never serves a snapshot for another uuid', async () => {
    const upstream = controlledUpstream()
    const coalescer = createMemoryCoalescer({
      fetch: upstream.fetch,
      timers: createFakeClock({ start: 0, stepping: true }).timers,
    })
    const a = coalescer.get(A)
    const b = coalescer.get(B)
    upstream.releaseAll()
    expect((await table(a)).uuid).toBe(A)
    expect((await table(b)).uuid).toBe(B)
    expect(upstream.calls).toEqual([A, B])
  })

  /** A memory coalescer on a hand-moved clock whose first upstream poll fails with `error`. */
  function firstPollFails(error: UpstreamError) {
    const clock = createFakeClock({ start: 0, stepping: true })
    const upstream = controlledUpstream()
    const coalescer = createMemoryCoalescer({ fetch: upstream.fetch, timers: clock.timers })
    const first = coalescer.get(A)
    upstream.pending.shift()?.reject(error)
    return { first, coalescer, upstream, wait: clock.advance }
  }

  it.each([
    // [case, the first poll's failure, what it answers, fake ms later, what the next get answers]
    [
      'holds a failure for the second too, so a failing upstream is not hammered',
      new UpstreamError('unavailable', 'upstream 503'),
      { kind: 'unavailable' },
      500,
      { kind: 'unavailable' },
    ],
    [
      'holds an upstream 429 for its Retry-After, counting the remaining wait down',
      new UpstreamError('rate_limited', 'upstream 429', { retryAfterMs: 3000 }),
      { details: { retryAfterMs: 3000 } },
      2000,
      { details: { retryAfterMs: 1000 } },
    ],
  ])('%s', async (_case, error, firstAnswer, laterMs, laterAnswer) => {
    const { first, coalescer, upstream, wait } = firstPollFails(error)
    await expect(first).rejects.toMatchObject(firstAnswer)
    wait(laterMs)
    await expect(coalescer.get(A)).rejects.toMatchObject(laterAnswer)
    expect(upstream.calls).toHaveLength(1)
  })

  it('holds a 429 for 60 s at most, whatever Retry-After asked', async () => {
    const { first, coalescer, upstream, wait } = firstPollFails(
      new UpstreamError('rate_limited', 'upstream 429', { retryAfterMs: 99_999_000 }),
    )
    await expect(first).rejects.toMatchObject({ details: { retryAfterMs: 60_000 } })
    wait(60_000)
    const next = coalescer.get(A)
    upstream.releaseAll()
    expect((await table(next)).uuid).toBe(A)
    expect(upstream.calls).toHaveLength(2)
  })

  it('sweeps expired snapshots on its timer, so memory follows the live searches', async () => {
    const clock = createFakeClock({ start: 0, stepping: true })
    const timers = manualTimers()
    const coalescer = createMemoryCoalescer({
      timers: clock.timers,
      every: timers.every,
      fetch: async (uuid) => rateTable(uuid),
    })
    const uuids = Array.from(
      { length: 50 },
      (_, i) => `0b7c4a52-9f0e-4d8e-b0a4-${String(i).padStart(12, '0')}`,
    )
    await Promise.all(uuids.map((uuid) => coalescer.get(uuid)))
    expect(coalescer.size()).toBe(50)
    timers.tick()
    expect(coalescer.size()).toBe(50)
    clock.advance(1000)
    timers.tick()
    expect(coalescer.size()).toBe(0)
    coalescer.close()
    expect(timers.count).toBe(0)
  })

  it('200 pollers for 10 s of fake time cause at most 11 upstream polls', async () => {
    const clock = createFakeClock({ start: 0, stepping: true })
    let calls = 0
    const coalescer = createMemoryCoalescer({
      timers: clock.timers,
      fetch: async (uuid) => {
        calls++
        clock.advance(20) // upstream latency on the fake clock
        return rateTable(uuid, 1)
      },
    })
    while (clock.now() < 10_000) {
      await Promise.all(Array.from({ length: 200 }, () => coalescer.get(A)))
      clock.advance(10)
    }
    expect(calls).toBeGreaterThanOrEqual(9)
    expect(calls).toBeLessThanOrEqual(11)
  })
})

const REDIS_URL = process.env.REDIS_URL
if (!REDIS_URL)
  announceSkip('the Redis coalescing tests', unsetVariable('REDIS_URL', 'redis://127.0.0.1:6379'))

describe.skipIf(!REDIS_URL)('redis coalescer (across replicas)', () => {
  const prefix = `test:${process.pid}:${Date.now()}:`
  const clients: Redis[] = []
  const logger = createLogger({ level: 'silent' })
  const client = () => {
    const redis = new Redis(REDIS_URL as string)
    clients.push(redis)
    return redis
  }
  const link = (redis: Redis) => watchRedis(redis, { logger, every: manualTimers().every })
  beforeAll(async () => {
    await Promise.all([client().ping(), client().ping()])
  })
  afterAll(async () => {
    const keys = await (clients[0] as Redis).keys(`${prefix}*`)
    if (keys.length > 0) await (clients[0] as Redis).del(...keys)
    await Promise.all(clients.map((redis) => redis.quit()))
  })

  function replicas(fetch: FetchRateTable, keyPrefix: string) {
    return [0, 1].map((i) =>
      createRedisCoalescer({
        fetch,
        link: link(clients[i] as Redis),
        keyPrefix,
        // Waiting replicas yield instead of sleeping, and never reach their deadline.
        timers: stillTimers,
        waitMs: 1,
      }),
    )
  }

  it('one upstream poll for concurrent polls on two replicas; the other replica reads the snapshot', async () => {
    const keyPrefix = `${prefix}a:`
    let calls = 0
    const gate = signal()
    const inFlight = signal()
    const [one, two] = replicas(async (uuid) => {
      calls++
      inFlight.resolve()
      await gate.promise
      return rateTable(uuid, 1)
    }, keyPrefix)
    const replicaList = [one, two] as PollCoalescer[]
    const polls = Array.from({ length: 50 }, (_, i) => (replicaList[i % 2] as PollCoalescer).get(A))
    // The upstream is called only once the lease is taken: no count of event-loop turns to guess.
    await inFlight.promise
    // While the upstream poll is in flight the lease outlives the interval: a slow answer never lets the
    // other replica start a second poll.
    expect(await (clients[0] as Redis).pttl(`${keyPrefix}poll:${A}:lock`)).toBeGreaterThan(1000)
    gate.resolve()
    const tables = await Promise.all(polls.map(table))
    expect(calls).toBe(1)
    expect(new Set(tables.map((t) => t.uuid))).toEqual(new Set([A]))
  })

  it('never serves one rate table for another uuid, and polls again once the lease and snapshot expire', async () => {
    const keyPrefix = `${prefix}b:`
    const calls: string[] = []
    const [one, two] = replicas(async (uuid) => {
      calls.push(uuid)
      return rateTable(uuid)
    }, keyPrefix)
    expect((await table(one?.get(A))).uuid).toBe(A)
    expect((await table(two?.get(B))).uuid).toBe(B)
    expect(calls).toEqual([A, B])
    // What Redis expiry does after a second, done by hand so the test needs no clock.
    await (clients[0] as Redis).del(`${keyPrefix}poll:${A}:snap`, `${keyPrefix}poll:${A}:lock`)
    const fresh = createRedisCoalescer({
      fetch: async (uuid) => {
        calls.push(uuid)
        return rateTable(uuid)
      },
      link: link(clients[1] as Redis),
      keyPrefix,
    })
    await fresh.get(A)
    expect(calls).toEqual([A, B, A])
  })

  it('stores an upstream 429 for 60 s at most, whatever Retry-After asked', async () => {
    const keyPrefix = `${prefix}d:`
    const [one] = replicas(async () => {
      throw new UpstreamError('rate_limited', 'upstream 429', { retryAfterMs: 99_999_000 })
    }, keyPrefix)
    await expect(one?.get(A)).rejects.toMatchObject({ kind: 'rate_limited' })
    for (const key of ['snap', 'lock']) {
      // Both the snapshot and the lease are held from the answer, for the capped wait.
      const ttl = await (clients[0] as Redis).pttl(`${keyPrefix}poll:${A}:${key}`)
      expect(ttl).toBeGreaterThan(50_000)
      expect(ttl).toBeLessThanOrEqual(60_000)
    }
  })

  it('a replica that cannot get the lease and sees no snapshot answers 503 instead of polling', async () => {
    const keyPrefix = `${prefix}c:`
    await (clients[0] as Redis).set(`${keyPrefix}poll:${A}:lock`, '1', 'PX', 60_000)
    let calls = 0
    const [one] = replicas(async (uuid) => {
      calls++
      return rateTable(uuid)
    }, keyPrefix)
    const clock = createFakeClock({ start: 0, stepping: true })
    const waiting = createRedisCoalescer({
      fetch: async (uuid) => {
        calls++
        return rateTable(uuid)
      },
      link: link(clients[0] as Redis),
      keyPrefix,
      timers: clock.timers,
      waitMs: 100,
    })
    await expect(waiting.get(A)).rejects.toMatchObject({ kind: 'unavailable' })
    // It looked for the snapshot every 25 ms of the coalescer's clock until its 100 ms were up.
    expect(clock.waits).toEqual([25, 25, 25, 25])
    expect(one).toBeDefined()
    expect(calls).toBe(0)
  })
})
