/**
 * @module Extra routes given to createBff (how the marketplace mounts `POST /api/second-look`): they get
 * the same CORS, widget-header rule, body limit, identity, access tokens and per-IP limit.
 */
import { describe, expect, it } from 'vitest'
import type { BffRoutes } from '../../src/bff/index.ts'
import { fakeHarness } from './support/fake-harness.ts'
import { PEER, postJson, UA } from './support/harness.ts'

const secondLook: BffRoutes = (api, services) => {
  api.post('/second-look', services.perIpRateLimit('/api/second-look', { points: 1 }), (c) => {
    const { ipAddress, userAgent } = services.clientIdentity(c)
    const uuid = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'
    return c.json({ accessToken: services.accessTokens.issue(uuid), ipAddress, userAgent }, 201)
  })
}

describe('createBff routes option', () => {
  it('mounts extra /api routes with the shared identity, tokens, header rule and limiter', async () => {
    const h = await fakeHarness({}, { routes: [secondLook], rateLimit: { points: 100 } })
    const ok = await h.request('/api/second-look', postJson({}))
    expect(ok.status).toBe(201)
    const body = await ok.json()
    expect(body).toMatchObject({ ipAddress: PEER, userAgent: UA })
    expect(h.app.services.accessTokens.verify(body.accessToken, '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f')).toBe(
      true,
    )
    expect((await h.request('/api/second-look', postJson({}))).status).toBe(429)
    expect((await h.request('/api/second-look', postJson({}, { 'user-agent': UA }))).status).toBe(403)
    const metrics = await h.app.services.metrics.registry.metrics()
    expect(metrics).toMatch(/bff_rate_limited_total\{route="\/api\/second-look"\} 1/)
    await h.close()
  })
})
