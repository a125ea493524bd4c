/**
 * @module Redis faults against real sockets: a port that refuses connections, a real Redis behind a TCP
 * proxy that the test cuts mid-run and restores, and one it partitions (connected, silent). In each,
 * searches and polls keep answering from in-process limits and coalescing without waiting on Redis,
 * `/readyz` stays 200 but says `degraded` naming redis (503 only for `?require=redis`), and the log says
 * so once per change, not per request.
 */
import { once } from 'node:events'
import { createServer } from 'node:net'
import type { Redis } from 'ioredis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { announceSkip, unsetVariable } from '../support/skip-notice.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-fault-proxy.ts'
import { CREATED_UUID, fakeHarness } from './support/fake-harness.ts'
import { postJson } from './support/harness.ts'

const REDIS_URL = process.env.REDIS_URL

/** Periodic work (heartbeat, reminder, sweep) ticked by hand. */
function manualTimers() {
  const tasks = new Map<() => void, number>()
  return {
    every: (task: () => void, ms: number) => {
      tasks.set(task, ms)
      return () => tasks.delete(task)
    },
    /** Runs every task scheduled at least this often. */
    tick(ms: number) {
      for (const [task, period] of tasks) if (period <= ms) task()
    },
  }
}

async function refusedPort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const uuidN = (i: number) => `0b7c4a52-9f0e-4d8e-b0a4-${String(i).padStart(12, '0')}`
const redisLines = (logs: string[], pattern: RegExp) => logs.filter((line) => pattern.test(line)).length

async function bffWithRedis(redisUrl: string, points = 1000) {
  const timers = manualTimers()
  const h = await fakeHarness(
    { REDIS_URL: redisUrl },
    { every: timers.every, keyPrefix: `test:faults:${process.pid}:${Date.now()}:`, rateLimit: { points } },
  )
  const redis = h.app.services.redis as Redis
  const poll = (uuid: string) =>
    h.request(`/api/offer-searches/${uuid}`, {
      headers: { 'x-offer-access-token': h.app.services.accessTokens.issue(uuid) },
    })
  const upstreamPolls = () =>
    h.upstream.requests.filter((r) => r.method === 'GET' && !r.url.endsWith('/issuers'))
  return { h, redis, timers, poll, upstreamPolls }
}

describe('Redis refusing connections', () => {
  it('searches and polls answer from this process; /readyz is degraded naming redis; one log line', async () => {
    const port = await refusedPort()
    const { h, redis, poll, upstreamPolls, timers } = await bffWithRedis(`redis://127.0.0.1:${port}`, 3)
    await new Promise((resolve) => redis.once('close', resolve))
    const created = await Promise.all(
      Array.from({ length: 4 }, () => h.request('/api/offer-searches', postJson({}))),
    )
    // The per-IP limit still holds, counted in memory.
    expect(created.map((r) => r.status).sort()).toEqual([201, 201, 201, 429])
    const polls = await Promise.all(Array.from({ length: 100 }, () => poll(CREATED_UUID)))
    expect(new Set(polls.map((r) => r.status))).toEqual(new Set([200]))
    // Coalesced in process: 100 concurrent polls, one upstream GET.
    expect(upstreamPolls()).toHaveLength(1)

    // Every replica sees the same Redis: draining them all would take the site down for a shared cache.
    const ready = await h.request('/readyz')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({
      status: 'degraded',
      code: 'redis_unavailable',
      message: expect.stringMatching(/Redis/),
    })

    expect(redisLines(h.logs, /redis unavailable/)).toBe(1)
    timers.tick(60_000)
    expect(redisLines(h.logs, /redis still unavailable/)).toBe(1)
    await h.close()
  })
})

if (!REDIS_URL)
  announceSkip(
    'the tests against a real Redis behind a cut proxy',
    unsetVariable('REDIS_URL', 'redis://127.0.0.1:6379'),
  )
describe.skipIf(!REDIS_URL)('Redis behind a proxy the test cuts', () => {
  let proxy: TcpProxy | undefined
  afterEach(async () => {
    await proxy?.close()
  })

  it('falls back when Redis goes away mid-run, and shares again once it is back', async () => {
    const target = new URL(REDIS_URL as string)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
    const { h, redis, poll, upstreamPolls } = await bffWithRedis(proxy.urlFor(REDIS_URL as string))
    if (redis.status !== 'ready') await once(redis, 'ready')
    expect((await h.request('/readyz')).status).toBe(200)
    expect((await poll(uuidN(1))).status).toBe(200)
    const sharedBytes = proxy.bytesIn
    expect(sharedBytes).toBeGreaterThan(0)

    proxy.cut()
    if (redis.status === 'ready') await new Promise((resolve) => redis.once('close', resolve))
    const polls = await Promise.all(Array.from({ length: 50 }, () => poll(uuidN(2))))
    expect(new Set(polls.map((r) => r.status))).toEqual(new Set([200]))
    expect(upstreamPolls().filter((r) => r.url.endsWith(uuidN(2)))).toHaveLength(1)
    expect((await h.request('/api/offer-searches', postJson({}))).status).toBe(201)
    const ready = await h.request('/readyz')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ status: 'degraded', code: 'redis_unavailable' })

    proxy.restore()
    await once(redis, 'ready')
    expect((await h.request('/readyz')).status).toBe(200)
    expect((await poll(uuidN(3))).status).toBe(200)
    expect(proxy.bytesIn).toBeGreaterThan(sharedBytes)
    expect(redisLines(h.logs, /redis unavailable/)).toBe(1)
    expect(redisLines(h.logs, /redis available again/)).toBe(1)
    await h.close()
  })

  it('a partition costs one command timeout, then Redis is skipped until a heartbeat answers', async () => {
    const target = new URL(REDIS_URL as string)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
    const { h, redis, poll, timers } = await bffWithRedis(proxy.urlFor(REDIS_URL as string))
    if (redis.status !== 'ready') await once(redis, 'ready')
    proxy.partition()
    // This poll's Redis command times out (500 ms); it is still answered, from this process.
    expect((await poll(uuidN(10))).status).toBe(200)
    const degraded = await h.request('/readyz')
    expect(degraded.status).toBe(200)
    expect(await degraded.json()).toMatchObject({ status: 'degraded', failing: ['redis'] })
    expect((await h.request('/readyz?require=redis')).status).toBe(503)
    const before = proxy.bytesIn
    const polls = await Promise.all(Array.from({ length: 20 }, (_, i) => poll(uuidN(11 + i))))
    expect(new Set(polls.map((r) => r.status))).toEqual(new Set([200]))
    expect((await h.request('/api/offer-searches', postJson({}))).status).toBe(201)
    // Nothing more was even sent to Redis: no request waited on it.
    expect(proxy.bytesIn).toBe(before)

    proxy.restore()
    timers.tick(1000)
    await vi.waitFor(() => expect(h.app.services.redisLink?.available()).toBe(true))
    expect((await h.request('/readyz')).status).toBe(200)
    expect(redisLines(h.logs, /redis unavailable/)).toBe(1)
    expect(redisLines(h.logs, /redis available again/)).toBe(1)
    await h.close()
  })
})
