/**
 * @module Wrong server keys are limited per client address (they were never limited: 300 wrong keys gave
 * 300 x 401), and never lock the right key out of that address (a shared NAT once could). In memory here; the Redis path is the request limits' `createPerIpLimiter`, tested with them.
 */
import { afterEach, expect, it } from 'vitest'
import { AUTH_FAILURE_POINTS } from '../../../src/bff/middleware/rate-limit/failure-limit.ts'
import { fakeHarness } from '../support/fake-harness.ts'

const KEY = `${'a'.repeat(20)}0123456789abcdef`
const ROUTE = '/api/server/offer-searches'
const VISITOR = {
  ipAddress: '81.2.69.160',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
}

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

const post = (key: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'user-agent': 'node', authorization: `Bearer ${key}` },
  body: JSON.stringify({ visitor: VISITOR }),
})

it('answers 429 with Retry-After once an address has sent too many wrong keys; the right key from it still passes', async () => {
  let peer = '10.1.2.3'
  const h = await fakeHarness({ SERVER_API_KEYS: KEY }, {}, () => peer)
  close = h.close
  const wrong = (i: number) => post(`wrong-${i}`.padEnd(36, 'x'))
  for (let i = 0; i < AUTH_FAILURE_POINTS; i++) expect((await h.request(ROUTE, wrong(i))).status).toBe(401)
  // Ten wrong keys from a shared address (a NAT, a load balancer not in TRUST_PROXY) lock nobody out.
  expect((await h.request(ROUTE, post(KEY))).status).toBe(201)
  const eleventh = await h.request(ROUTE, wrong(AUTH_FAILURE_POINTS))
  expect(eleventh.status).toBe(429)
  expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0)
  expect((await eleventh.json()).code).toBe('rate_limited')
  const statuses: number[] = []
  for (let i = 0; i < 300; i++) statuses.push((await h.request(ROUTE, wrong(100 + i))).status)
  expect(new Set(statuses)).toEqual(new Set([429]))
  expect((await h.request(ROUTE, post(KEY))).status).toBe(201)

  peer = '10.9.9.9'
  expect((await h.request(ROUTE, post('c'.repeat(36)))).status).toBe(401)
  expect((await h.request(ROUTE, post(KEY))).status).toBe(201)
})

it('does not count right keys as failures', async () => {
  const h = await fakeHarness({ SERVER_API_KEYS: KEY, SERVER_RATE_LIMIT_POINTS: '100' }, {}, () => '10.1.2.3')
  close = h.close
  for (let i = 0; i < AUTH_FAILURE_POINTS + 2; i++)
    expect((await h.request(ROUTE, post(KEY))).status).toBe(201)
})
