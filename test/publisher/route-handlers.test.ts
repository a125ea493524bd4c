/**
 * @module createRouteHandlers: the app is made on the first request, not at import; the host framework owns
 * compression (Next.js compresses a route's answer whatever its Content-Encoding), so the BFF answers it
 * uncompressed even when the browser accepts gzip, and a POST body still reaches the app.
 */
import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import type { BffApp } from '../../src/bff/create-bff.ts'
import { compressJson } from '../../src/bff/middleware/compress-json/index.ts'
import type { BffServices } from '../../src/bff/services.ts'
import { createRouteHandlers } from '../../src/publisher/route-handlers.ts'

const big = { offers: Array.from({ length: 60 }, (_, i) => ({ id: `offer-${i}`, name: 'Example Mutual' })) }

function fakeBff(config: { trustProxy?: string } = { trustProxy: '1' }, warn = vi.fn()): BffApp {
  const app = new Hono()
  app.use('*', compressJson())
  app.get('/api/big', (c) => c.json(big))
  app.post('/api/echo', async (c) => c.json({ got: await c.req.json(), big }))
  const services = { config, logger: { warn } } as unknown as BffServices
  return Object.assign(app, { services, close: async () => {} })
}

describe('createRouteHandlers', () => {
  it('creates the app on the first request only', async () => {
    let made = 0
    const handlers = createRouteHandlers(() => {
      made += 1
      return fakeBff()
    })
    expect(made).toBe(0)
    await handlers.GET(new Request('http://publisher.test/api/big'))
    await handlers.GET(new Request('http://publisher.test/api/big'))
    expect(made).toBe(1)
  })

  it.each([
    [
      'GET',
      () => new Request('http://publisher.test/api/big', { headers: { 'accept-encoding': 'gzip, br' } }),
    ],
    [
      'POST',
      () =>
        new Request('http://publisher.test/api/echo', {
          method: 'POST',
          headers: { 'accept-encoding': 'gzip', 'content-type': 'application/json' },
          body: JSON.stringify({ zip: '94107' }),
        }),
    ],
  ] as const)('%s: answers uncompressed JSON for the host framework to encode', async (method, request) => {
    const handlers = createRouteHandlers(() => fakeBff())
    const res = await handlers[method](request())
    expect(res.headers.get('content-encoding')).toBeNull()
    const body = (await res.json()) as { offers?: unknown; got?: unknown; big?: unknown }
    if (method === 'POST') expect(body).toEqual({ got: { zip: '94107' }, big })
    else expect(body).toEqual(big)
  })

  it('without TRUST_PROXY warns once, when the app is made, naming TRUST_PROXY and what to set', async () => {
    const warn = vi.fn()
    const handlers = createRouteHandlers(() => fakeBff({}, warn))
    expect(warn).not.toHaveBeenCalled()
    await handlers.GET(new Request('http://publisher.test/api/big'))
    await handlers.GET(new Request('http://publisher.test/api/big'))
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[1]).toMatch(
      /TRUST_PROXY is not set.*share one rate-limit bucket.*TRUST_PROXY=1/,
    )
  })

  it('with TRUST_PROXY set warns nothing', async () => {
    const warn = vi.fn()
    await createRouteHandlers(() => fakeBff({ trustProxy: '1' }, warn)).GET(
      new Request('http://publisher.test/api/big'),
    )
    expect(warn).not.toHaveBeenCalled()
  })
})
