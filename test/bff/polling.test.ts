/**
 * @module Polling through the BFF with an injected clock: tokens bound to their uuid and expiring, malformed
 * uuids refused before any upstream call, and at most one upstream GET per rate table per second.
 */
import { describe, expect, it } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { CREATED_UUID, fakeHarness } from './support/fake-harness.ts'
import { postJson } from './support/harness.ts'

async function setup() {
  const clock = createFakeClock({ start: Date.parse('2026-03-01T12:00:00Z'), stepping: true })
  const h = await fakeHarness({}, { timers: clock.timers })
  const created = createdSearchSchema.parse(
    await (await h.request('/api/offer-searches', postJson({}))).json(),
  )
  const poll = (token = created.accessToken, uuid = CREATED_UUID) =>
    h.request(`/api/offer-searches/${uuid}`, { headers: { 'x-offer-access-token': token } })
  const upstreamPolls = () => h.upstream.requests.filter((r) => r.method === 'GET').length
  return {
    h,
    created,
    poll,
    upstreamPolls,
    advance: clock.advance,
  }
}

describe('GET /api/offer-searches/:uuid', () => {
  it('200 concurrent polls cause one upstream GET; the next second causes one more', async () => {
    const s = await setup()
    const answers = await Promise.all(Array.from({ length: 200 }, () => s.poll()))
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200]))
    expect(s.upstreamPolls()).toBe(1)
    s.advance(500)
    expect((await s.poll()).status).toBe(200)
    expect(s.upstreamPolls()).toBe(1)
    s.advance(600)
    await Promise.all(Array.from({ length: 50 }, () => s.poll()))
    expect(s.upstreamPolls()).toBe(2)
    await s.h.close()
  })

  it('an expired token is a 404, and so is a token for another uuid', async () => {
    const s = await setup()
    expect((await s.poll(s.created.accessToken, '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f7')).status).toBe(404)
    s.advance(15 * 60 * 1000)
    expect((await s.poll()).status).toBe(200)
    s.advance(24 * 60 * 60 * 1000)
    const expired = await s.poll()
    expect(expired.status).toBe(404)
    expect(await expired.json()).toEqual({ code: 'not_found', message: 'No such offer search' })
    await s.h.close()
  })

  it('a malformed uuid is a 400 before any upstream call', async () => {
    const s = await setup()
    for (const uuid of [
      'nope',
      '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f',
      '..%2F..%2Fissuers',
      '5d0f8a3e1b2c4d5e8f90a1b2c3d4e5f6',
    ]) {
      expect((await s.poll(s.created.accessToken, uuid)).status).toBe(400)
    }
    expect(s.upstreamPolls()).toBe(0)
    await s.h.close()
  })

  it.each([
    // [case, the upstream's Retry-After, the widget's, how long the BFF holds the 429]
    [
      'an upstream 429 on a poll reaches the widget as 429 with Retry-After; the next poll waits it out',
      '3',
      '3',
      3000,
    ],
    [
      'an upstream Retry-After of 99999 s is honoured for 60 s at most, never stored longer',
      '99999',
      '60',
      60_000,
    ],
  ])('%s', async (_case, upstreamRetryAfter, widgetRetryAfter, holdMs) => {
    const s = await setup()
    s.h.upstream.script({ status: 429, headers: { 'retry-after': upstreamRetryAfter } })
    const limited = await s.poll()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe(widgetRetryAfter)
    s.advance(holdMs - 1000)
    expect((await s.poll()).status).toBe(429)
    expect(s.upstreamPolls()).toBe(1)
    s.advance(1000)
    expect((await s.poll()).status).toBe(200)
    expect(s.upstreamPolls()).toBe(2)
    await s.h.close()
  })
})
