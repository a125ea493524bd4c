/**
 * @module How the BFF serves the second look (`createBff(config, { secondLook })`): the marketplace's search
 * engine behind the BFF's own search resource, with the BFF's CORS, widget-header rule, visitor identity,
 * access tokens, bot refusal, per-IP limit and lead ceiling; its bearer routes behind the BFF's limit on
 * refused tokens; its ledger in `/readyz`. The marketplace here is a small engine of the test's own: the
 * real one, mounted this way, is in test/server and the e2e suite.
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { SecondLookMount } from '../../src/bff/index.ts'
import { AUTH_FAILURE_POINTS } from '../../src/bff/middleware/rate-limit/failure-limit.ts'
import { ACCESS_TOKEN_HEADER, LEAD_BODY_LIMIT_BYTES } from '../../src/contract/bff.ts'
import type { SearchApi } from '../../src/marketplace/index.ts'
import { fakeHarness } from './support/fake-harness.ts'
import { PEER, postJson, UA, WIDGET } from './support/harness.ts'

const UUID = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'

function secondLook(
  seen: string[],
  {
    ledger = async () => {},
    bodyLimitBytes = 1024,
  }: { ledger?: () => Promise<void>; bodyLimitBytes?: number } = {},
): SecondLookMount {
  const marketplace: SearchApi = {
    searchPath: '/second-look',
    engine: {
      noun: 'second-look search',
      bodyLimitBytes,
      refusedToBots: 'send second-look leads',
      async create(_c, visitor) {
        const { ipAddress, userAgent } = visitor()
        seen.push(`lead from ${ipAddress} ${userAgent}`)
        return { searchUuid: UUID, rateTable: { uuid: UUID, offers: [] } }
      },
      poll: async (uuid) => ({ uuid, offers: [] }),
    },
    routes: () => [
      {
        path: '/reports',
        bearer: true,
        app: new Hono().get('/', (c) =>
          c.req.header('authorization') === 'Bearer right'
            ? c.json({ ok: true })
            : c.json({ code: 'unauthorized', message: 'send the reports token' }, 401),
        ),
      },
    ],
  }
  return { marketplace, leadCeilingPerMinute: 2, checkLedger: ledger }
}

describe('createBff secondLook option', () => {
  it("serves the marketplace's search with the BFF's identity, access tokens and per-IP limit", async () => {
    const seen: string[] = []
    const h = await fakeHarness({}, { secondLook: secondLook(seen), rateLimit: { points: 1 } })
    try {
      const ok = await h.request('/api/second-look', postJson({}))
      expect(ok.status).toBe(201)
      const { accessToken } = (await ok.json()) as { accessToken: string }
      expect(seen).toEqual([`lead from ${PEER} ${UA}`])
      expect(h.app.services.accessTokens.verify(accessToken, UUID)).toBe(true)
      const poll = await h.request(`/api/second-look/${UUID}`, {
        headers: { ...WIDGET, [ACCESS_TOKEN_HEADER]: accessToken },
      })
      expect(poll.status).toBe(200)
      expect((await h.request('/api/second-look', postJson({}))).status).toBe(429)
      // The widget-header rule: a browser's request without it never reaches the engine.
      expect((await h.request('/api/second-look', postJson({}, { 'user-agent': UA }))).status).toBe(403)
      expect(seen).toHaveLength(1)
      const metrics = await h.app.services.metrics.registry.metrics()
      expect(metrics).toMatch(/bff_rate_limited_total\{route="second-look"\} 1/)
    } finally {
      await h.close()
    }
  })

  it('refuses a declared bot outside sandbox mode, and caps leads from every address together', async () => {
    const seen: string[] = []
    const h = await fakeHarness({}, { secondLook: secondLook(seen) })
    try {
      expect(h.config.sandboxMode).toBe(false)
      const bot = await h.request('/api/second-look', postJson({}, { ...WIDGET, 'user-agent': 'curl/8.5.0' }))
      expect(bot.status).toBe(403)
      expect(await bot.json()).toMatchObject({ message: expect.stringContaining('send second-look leads') })
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await h.request('/api/second-look', postJson({}))).status)
      expect(statuses).toEqual([201, 201, 429])
      expect(seen).toHaveLength(2)
    } finally {
      await h.close()
    }
  })

  it("puts its limit on refused tokens before the marketplace's bearer routes", async () => {
    const h = await fakeHarness({}, { secondLook: secondLook([]) })
    try {
      const statuses = []
      for (let i = 0; i <= AUTH_FAILURE_POINTS; i++) {
        const res = await h.request('/api/reports', { headers: { ...WIDGET, authorization: 'Bearer wrong' } })
        statuses.push(res.status)
      }
      expect(statuses).toEqual([...Array(AUTH_FAILURE_POINTS).fill(401), 429])
    } finally {
      await h.close()
    }
  })

  it("lets the engine's body bound decide, under the API's 64 KB ceiling, not its path", async () => {
    const h = await fakeHarness({}, { secondLook: secondLook([], { bodyLimitBytes: LEAD_BODY_LIMIT_BYTES }) })
    try {
      // Over the offer searches' 16 KB, under the lead's 64 KB.
      const lead = await h.request('/api/second-look', postJson({ padding: 'x'.repeat(40 * 1024) }))
      expect(lead.status).toBe(201)
      const over = await h.request('/api/second-look', postJson({ padding: 'x'.repeat(65 * 1024) }))
      expect(over.status).toBe(413)
    } finally {
      await h.close()
    }
    const small = await fakeHarness({}, { secondLook: secondLook([]) })
    try {
      const res = await small.request('/api/second-look', postJson({ padding: 'x'.repeat(2 * 1024) }))
      expect(res.status).toBe(413)
    } finally {
      await small.close()
    }
  })

  it("reports the second look's ledger in /readyz", async () => {
    const h = await fakeHarness(
      {},
      { secondLook: secondLook([], { ledger: () => Promise.reject(new Error('ledger cut')) }) },
    )
    try {
      // Degraded, not down: offer searches go on without the ledger.
      const res = await h.request('/readyz')
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        status: 'degraded',
        code: 'ledger_unavailable',
        failing: ['ledger'],
      })
      expect((await h.request('/readyz?require=ledger')).status).toBe(503)
    } finally {
      await h.close()
    }
  })
})
