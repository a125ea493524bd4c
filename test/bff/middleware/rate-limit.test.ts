/**
 * @module Per-IP limit middleware: 429 with Retry-After past the limit; IPv6 counted per /64; with Redis,
 * two apps (replicas) count together.
 */
import { Hono } from 'hono'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/bff/logger.ts'
import { createMetrics } from '../../../src/bff/metrics.ts'
import {
  createPerIpLimiter,
  limiterKeyForIp,
  rateLimit,
} from '../../../src/bff/middleware/rate-limit/index.ts'
import { watchRedis } from '../../../src/bff/redis-link.ts'
import { onHttpError } from '../../../src/http/errors.ts'
import { announceSkip, unsetVariable } from '../../support/skip-notice.ts'

function limitedApp(limiter: ReturnType<typeof createPerIpLimiter>, metrics = createMetrics()) {
  const app = new Hono()
  app.onError(onHttpError(createLogger({ level: 'silent' })))
  app.post(
    '/api/second-look',
    rateLimit({
      limiter,
      key: (c) => limiterKeyForIp(c.req.header('x-test-ip') ?? ''),
      route: '/api/second-look',
      metrics,
    }),
    (c) => c.json({ ok: true }),
  )
  return app
}

const post = (app: Hono, ip: string) =>
  app.request('/api/second-look', { method: 'POST', headers: { 'x-test-ip': ip } })

describe('rateLimit (memory)', () => {
  it('answers 429 rate_limited with Retry-After once the points are spent, per address', async () => {
    const metrics = createMetrics()
    const app = limitedApp(createPerIpLimiter({ points: 2, durationSeconds: 60 }), metrics)
    expect((await post(app, '198.51.100.1')).status).toBe(200)
    expect((await post(app, '198.51.100.1')).status).toBe(200)
    const refused = await post(app, '198.51.100.1')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' })
    expect((await post(app, '198.51.100.2')).status).toBe(200)
    expect((await metrics.rateLimited.get()).values[0]?.value).toBe(1)
  })

  it('counts an IPv6 /64 as one client', async () => {
    expect(limiterKeyForIp('2001:db8:1:2:aaaa::1')).toBe(limiterKeyForIp('2001:db8:1:2:bbbb::2'))
    expect(limiterKeyForIp('2001:db8:1:3::1')).not.toBe(limiterKeyForIp('2001:db8:1:2::1'))
    expect(limiterKeyForIp('203.0.113.7')).toBe('203.0.113.7')
  })
})

const REDIS_URL = process.env.REDIS_URL
if (!REDIS_URL)
  announceSkip('the shared (Redis) limiter test', unsetVariable('REDIS_URL', 'redis://127.0.0.1:6379'))

describe.skipIf(!REDIS_URL)('rateLimit (Redis, shared by replicas)', () => {
  const clients: Redis[] = []
  afterAll(async () => {
    await Promise.all(clients.map((redis) => redis.quit()))
  })

  it('two replicas spend the same points', async () => {
    const keyPrefix = `test:rl:${process.pid}:${Date.now()}`
    const [a, b] = [new Redis(REDIS_URL as string), new Redis(REDIS_URL as string)]
    clients.push(a, b)
    await Promise.all([a.ping(), b.ping()])
    const link = (redis: Redis) =>
      watchRedis(redis, { logger: createLogger({ level: 'silent' }), every: () => () => {} })
    const one = limitedApp(createPerIpLimiter({ points: 2, durationSeconds: 60, link: link(a), keyPrefix }))
    const two = limitedApp(createPerIpLimiter({ points: 2, durationSeconds: 60, link: link(b), keyPrefix }))
    expect((await post(one, '198.51.100.9')).status).toBe(200)
    expect((await post(two, '198.51.100.9')).status).toBe(200)
    expect((await post(one, '198.51.100.9')).status).toBe(429)
    expect((await post(two, '198.51.100.9')).status).toBe(429)
    await a.del(`${keyPrefix}:198.51.100.9`)
  })
})
