/**
 * @module Server-only routes: any request with an `Origin` header (whatever its value, preflights included)
 * is refused with 403 forbidden before the handler runs; a request without one goes through, whatever else
 * it carries. `Origin` is the one signal a page cannot take off a cross-origin or same-origin POST.
 */
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { onBffError } from '../../../src/bff/errors.ts'
import { createLogger } from '../../../src/bff/logger.ts'
import { refuseBrowsers } from '../../../src/bff/middleware/refuse-browsers/index.ts'

function serverOnlyApp() {
  const reached: string[] = []
  const app = new Hono()
  app.onError(onBffError(createLogger({ level: 'silent' })))
  app.use('*', refuseBrowsers())
  app.on(['GET', 'POST', 'OPTIONS'], '/api/server', (c) => {
    reached.push(c.req.method)
    return c.json({ ok: true })
  })
  return { app, reached }
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(403)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(res.headers.get('access-control-allow-origin')).toBeNull()
  expect(await res.json()).toEqual({
    code: 'forbidden',
    message:
      'This route is for your server only: call it from server code (no Origin header), never a browser',
  })
}

describe('refuseBrowsers', () => {
  it.each([
    [
      'a cross-origin POST',
      'POST',
      { origin: 'https://publisher.example', 'content-type': 'application/json' },
    ],
    ['a same-origin POST (browsers send Origin on every POST)', 'POST', { origin: 'http://localhost' }],
    ['a GET from a page', 'GET', { origin: 'https://publisher.example' }],
    [
      'a CORS preflight',
      'OPTIONS',
      { origin: 'https://publisher.example', 'access-control-request-method': 'POST' },
    ],
    ['an opaque origin (sandboxed frame, file:)', 'POST', { origin: 'null' }],
    ['an empty Origin header', 'POST', { origin: '' }],
    [
      'Origin next to a right Authorization',
      'POST',
      { origin: 'https://a.example', authorization: 'Bearer k' },
    ],
  ])('refuses %s with 403 and never runs the handler', async (_name, method, headers) => {
    const { app, reached } = serverOnlyApp()
    await expectRefused(await app.request('/api/server', { method, headers }))
    expect(reached).toEqual([])
  })

  it('refuses every Origin value a client can send', async () => {
    const { app, reached } = serverOnlyApp()
    // Header values a fetch can carry: no CR, LF or NUL; leading/trailing whitespace is trimmed anyway.
    const origin = fc.oneof(
      fc.tuple(fc.constantFrom('http', 'https'), fc.domain()).map(([scheme, host]) => `${scheme}://${host}`),
      fc.string().filter((s) => !/[\r\n\0]/.test(s) && [...s].every((ch) => ch.charCodeAt(0) < 256)),
    )
    await fc.assert(
      fc.asyncProperty(origin, async (value) => {
        const res = await app.request('/api/server', { method: 'POST', headers: { origin: value } })
        expect(res.status).toBe(403)
      }),
      { numRuns: 100 },
    )
    expect(reached).toEqual([])
  })

  it.each([
    [
      'a server POST with no Origin',
      'POST',
      { authorization: 'Bearer k', 'content-type': 'application/json' },
    ],
    // Only Origin counts: a browser-like User-Agent, Referer or Sec-Fetch-* header from a server is its business.
    [
      'a browser-looking request without Origin',
      'POST',
      {
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36',
        referer: 'https://publisher.example/page',
        'sec-fetch-site': 'same-origin',
      },
    ],
    ['a GET with no headers at all', 'GET', {}],
  ])('lets %s through to the handler', async (_name, method, headers) => {
    const { app, reached } = serverOnlyApp()
    const res = await app.request('/api/server', { method, headers })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    expect(reached).toEqual([method])
  })
})
