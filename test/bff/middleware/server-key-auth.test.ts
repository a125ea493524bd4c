/**
 * @module Server keys: `Authorization: Bearer <key>` against the configured keys, compared in constant time
 * over SHA-256 digests (every key, whatever matched), the key's fingerprint on the context, 401 with
 * `WWW-Authenticate` otherwise; and, as the server route wires it, the per-address limit on wrong keys
 * (`authFailureLimit`) around it, which never refuses a right key.
 */
import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { RateLimiterRes } from 'rate-limiter-flexible'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createLogger, type Logger } from '../../../src/bff/logger.ts'
import { createMetrics } from '../../../src/bff/metrics.ts'
import { authFailureLimit } from '../../../src/bff/middleware/rate-limit/failure-limit.ts'
import {
  createPerIpLimiter,
  limiterKeyForIp,
  type PerIpLimiter,
} from '../../../src/bff/middleware/rate-limit/index.ts'
import {
  type ServerKeyVariables,
  serverKeyAuth,
  serverKeyId,
} from '../../../src/bff/middleware/server-key-auth/index.ts'
import { httpError, onHttpError } from '../../../src/http/errors.ts'

// The real comparison, watched: which buffers are compared, and how many times.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>()
  const timingSafeEqual = vi.fn(real.timingSafeEqual)
  return { ...real, default: { ...real, timingSafeEqual }, timingSafeEqual }
})
const { timingSafeEqual } = await import('node:crypto')
const compared = vi.mocked(timingSafeEqual)

const KEY_A = 'live-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
const KEY_B = 'live-key-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
const ROUTE = '/api/server/offer-searches'

function keyedApp(keys: readonly string[] = [KEY_A, KEY_B]) {
  const app = new Hono<{ Variables: ServerKeyVariables }>()
  app.onError(onHttpError(createLogger({ level: 'silent' })))
  app.post(ROUTE, serverKeyAuth({ keys }), (c) => c.json({ keyId: c.get('serverKeyId') }, 201))
  return app
}

const post = (app: { request: Hono['request'] }, authorization?: string, ip = '198.51.100.7') =>
  app.request(ROUTE, {
    method: 'POST',
    headers: authorization === undefined ? { 'x-test-ip': ip } : { authorization, 'x-test-ip': ip },
  })

async function expectUnauthorized(res: Response) {
  expect(res.status).toBe(401)
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="offer-widget-server"')
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(await res.json()).toEqual({
    code: 'unauthorized',
    message: 'Send Authorization: Bearer <key> with a key from SERVER_API_KEYS',
  })
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

beforeEach(() => {
  compared.mockClear()
})

describe('serverKeyAuth', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an empty one', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and blanks', 'Bearer    '],
    ['another scheme with a right key', `Basic ${KEY_A}`],
    ['a right key with no scheme', KEY_A],
    ['a wrong key', 'Bearer live-key-cccccccccccccccccccccccccccccc'],
    ['a right key with a different case', `Bearer ${KEY_A.toUpperCase()}`],
    ['a prefix of a right key', `Bearer ${KEY_A.slice(0, -1)}`],
    ['a right key with one more character', `Bearer ${KEY_A}a`],
    ['a right key followed by another word', `Bearer ${KEY_A} ${KEY_B}`],
    ['two keys separated by a comma', `Bearer ${KEY_A},${KEY_B}`],
    ['a key far longer than any configured one', `Bearer ${'k'.repeat(10_000)}`],
  ])('refuses %s with 401 and WWW-Authenticate', async (_name, authorization) => {
    await expectUnauthorized(await post(keyedApp(), authorization))
  })

  it.each([
    ['the first key', `Bearer ${KEY_A}`, KEY_A],
    ['the second key', `Bearer ${KEY_B}`, KEY_B],
    ['a lower-case scheme', `bearer ${KEY_A}`, KEY_A],
    ['an upper-case scheme', `BEARER ${KEY_B}`, KEY_B],
    ['several blanks after the scheme', `Bearer \t  ${KEY_A}`, KEY_A],
  ])(
    'accepts %s and puts its fingerprint, never the key, on the context',
    async (_name, authorization, key) => {
      const res = await post(keyedApp(), authorization)
      expect(res.status).toBe(201)
      const { keyId } = (await res.json()) as { keyId: string }
      expect(keyId).toBe(sha256(key).toString('hex').slice(0, 12))
      expect(keyId).toBe(serverKeyId(key))
      expect(keyId).not.toContain(key.slice(0, 8))
    },
  )

  it('gives each key its own 12-hex-digit fingerprint', () => {
    expect(serverKeyId(KEY_A)).toMatch(/^[0-9a-f]{12}$/)
    expect(serverKeyId(KEY_A)).not.toBe(serverKeyId(KEY_B))
    expect(serverKeyId(KEY_A)).toBe(serverKeyId(KEY_A))
  })

  it('refuses every key when none is configured', async () => {
    await expectUnauthorized(await post(keyedApp([]), `Bearer ${KEY_A}`))
    await expectUnauthorized(await post(keyedApp([]), 'Bearer '))
  })

  it('compares the SHA-256 digests of the presented key and of every configured key, whichever matches', async () => {
    const keys = [KEY_A, KEY_B, 'live-key-third-dddddddddddddddddddddd']
    const app = keyedApp(keys)
    for (const presented of [KEY_A, KEY_B, 'wrong', 'k'.repeat(10_000)]) {
      compared.mockClear()
      await post(app, `Bearer ${presented}`)
      // Equal-length digests: a longer or shorter key takes the same path, and never throws.
      expect(
        compared.mock.calls.map(([a, b]) => [Buffer.from(a as Uint8Array), Buffer.from(b as Uint8Array)]),
      ).toEqual(keys.map((key) => [sha256(presented), sha256(key)]))
    }
  })

  it('compares nothing when no key was presented', async () => {
    await post(keyedApp(), undefined)
    expect(compared).not.toHaveBeenCalled()
  })
})

/** The server route's wiring: the key is checked, and only wrong keys spend points per client address. */
function guardedApp(options: { limiter?: PerIpLimiter; points?: number; logger?: Logger } = {}) {
  const metrics = createMetrics()
  const points = options.points ?? 3
  const app = new Hono<{ Variables: ServerKeyVariables }>()
  app.onError(onHttpError(createLogger({ level: 'silent' })))
  app.post(
    ROUTE,
    authFailureLimit({
      limiter: options.limiter ?? createPerIpLimiter({ points, durationSeconds: 60 }),
      key: (c) => limiterKeyForIp(c.req.header('x-test-ip') ?? ''),
      route: ROUTE,
      metrics,
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    serverKeyAuth({ keys: [KEY_A] }),
    // A right key with a body the route refuses: `x-test-refuse: 400`.
    (c) => {
      const refuse = c.req.header('x-test-refuse')
      if (refuse) throw httpError(Number(refuse) as 400, 'bad_request', 'Refused after the key')
      return c.json({ keyId: c.get('serverKeyId') }, 201)
    },
  )
  return { app, metrics }
}

async function expectLimited(res: Response) {
  expect(res.status).toBe(429)
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(await res.json()).toEqual({
    code: 'rate_limited',
    message: 'Too many refused keys from this address: retry after Retry-After',
  })
}

const rateLimitedCount = async (metrics: ReturnType<typeof createMetrics>) =>
  (await metrics.rateLimited.get()).values.find((v) => v.labels.route === ROUTE)?.value ?? 0

describe('serverKeyAuth behind authFailureLimit', () => {
  it('answers 401 for the first wrong keys, then 429 for that address; the right key still passes', async () => {
    const { app, metrics } = guardedApp({ points: 3 })
    for (let i = 0; i < 3; i++) await expectUnauthorized(await post(app, `Bearer wrong-${i}`))
    await expectLimited(await post(app, 'Bearer wrong-3'))
    // Wrong keys from a shared NAT must not lock the publisher out of its own route.
    expect((await post(app, `Bearer ${KEY_A}`)).status).toBe(201)
    await expectLimited(await post(app, 'Bearer wrong-4'))
    expect(await rateLimitedCount(metrics)).toBe(2)
  })

  it('counts per address (an IPv6 /64 as one), not for everyone', async () => {
    const { app } = guardedApp({ points: 2 })
    for (let i = 0; i < 3; i++) await post(app, 'Bearer wrong', '198.51.100.7')
    expect((await post(app, 'Bearer wrong', '198.51.100.7')).status).toBe(429)
    expect((await post(app, 'Bearer wrong', '198.51.100.8')).status).toBe(401)

    for (let i = 0; i < 2; i++) await post(app, 'Bearer wrong', `2001:db8:1:2::${i + 1}`)
    expect((await post(app, 'Bearer wrong', '2001:db8:1:2:ffff::9')).status).toBe(429)
    expect((await post(app, 'Bearer wrong', '2001:db8:1:3::1')).status).toBe(401)
  })

  it('spends points only on 401s (a wrong or a missing key), never on a right key', async () => {
    const { app, metrics } = guardedApp({ points: 2 })
    for (let i = 0; i < 10; i++) expect((await post(app, `Bearer ${KEY_A}`)).status).toBe(201)
    // Refusals after the key check (a bad body, a per-key limit) are not wrong keys.
    for (const status of [400, 403, 413, 429, 500, 400, 429]) {
      const res = await app.request(ROUTE, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEY_A}`,
          'x-test-ip': '198.51.100.7',
          'x-test-refuse': String(status),
        },
      })
      expect(res.status).toBe(status)
    }
    await expectUnauthorized(await post(app, 'Bearer wrong'))
    expect((await post(app, `Bearer ${KEY_A}`)).status).toBe(201)
    await expectUnauthorized(await post(app, undefined))
    await expectLimited(await post(app, 'Bearer wrong'))
    expect(await rateLimitedCount(metrics)).toBe(1)
  })

  it('lets requests through, and logs, when the limiter store fails', async () => {
    const warn = vi.fn()
    const broken: PerIpLimiter = { consume: () => Promise.reject(new Error('redis down')) }
    const { app, metrics } = guardedApp({ limiter: broken, logger: { warn } as unknown as Logger })
    for (let i = 0; i < 3; i++) await expectUnauthorized(await post(app, 'Bearer wrong'))
    expect((await post(app, `Bearer ${KEY_A}`)).status).toBe(201)
    // consume fails on each wrong key; the right one never reaches the store.
    expect(warn).toHaveBeenCalledTimes(3)
    expect(warn).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'redis down' }) },
      'rate limiter store failed; request let through',
    )
    expect(await rateLimitedCount(metrics)).toBe(0)
  })

  it('refuses a wrong key with the store time left as Retry-After, and lets the right key through', async () => {
    const full = new RateLimiterRes(0, 42_100, 3)
    const consume = vi.fn(() => Promise.reject(full))
    const { app } = guardedApp({ limiter: { consume } })
    const res = await post(app, 'Bearer wrong')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('43')
    expect((await post(app, `Bearer ${KEY_A}`)).status).toBe(201)
    expect(consume).toHaveBeenCalledTimes(1)
  })
})
