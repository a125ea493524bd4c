/** @module CORS: exact listed origins only, never `*`, never an unlisted origin reflected. */
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createLogger, type Logger } from '../../../src/bff/logger.ts'
import { widgetCors } from '../../../src/bff/middleware/widget-cors/index.ts'
import { onHttpError } from '../../../src/http/errors.ts'

const ALLOWED = ['https://publisher.example', 'http://localhost:5173']

function app() {
  const a = new Hono()
  a.onError(onHttpError(createLogger({ level: 'silent' })))
  a.use('*', widgetCors({ allowedOrigins: [...ALLOWED, '*'] }))
  a.get('/api/x', (c) => c.json({ ok: true }))
  return a
}

describe('widgetCors', () => {
  it('allows each listed origin exactly, with Vary: Origin', async () => {
    for (const origin of ALLOWED) {
      const res = await app().request('/api/x', { headers: { origin } })
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
      expect(res.headers.get('vary')).toMatch(/origin/i)
    }
  })

  // 100 generated origins through the middleware: seconds under load, so more than the default 5 s.
  it('never answers * and never reflects an unlisted origin, even when * is configured', {
    timeout: 30_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.webUrl().map((u) => new URL(u).origin),
          fc.string(),
          fc.constant('*'),
        ),
        async (origin) => {
          fc.pre(!ALLOWED.includes(origin))
          const headers = new Headers()
          try {
            headers.set('origin', origin)
          } catch {
            return
          }
          const res = await app().request('/api/x', { headers })
          expect(res.headers.get('access-control-allow-origin')).toBeNull()
        },
      ),
      { numRuns: 100 },
    )
  })

  it('refuses the preflight of an unlisted origin with 403', async () => {
    const res = await app().request('/api/x', {
      method: 'OPTIONS',
      headers: { origin: 'https://publisher.example.evil', 'access-control-request-method': 'POST' },
    })
    expect(res.status).toBe(403)
  })

  it('logs a refused origin with the ALLOWED_ORIGINS that fixes it, once per origin per window', async () => {
    const lines: string[] = []
    let clock = 0
    const logger = { warn: (_fields: object, message: string) => lines.push(message) }
    const a = new Hono()
    a.onError(onHttpError(createLogger({ level: 'silent' })))
    a.use(
      '*',
      widgetCors({
        allowedOrigins: ALLOWED,
        logger: logger as unknown as Pick<Logger, 'warn'>,
        logEveryMs: 60_000,
        timers: { now: () => clock },
      }),
    )
    a.get('/api/x', (c) => c.json({ ok: true }))
    const preflight = (origin: string) =>
      a.request('/api/x', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
    await preflight('https://shop.example')
    await preflight('https://shop.example')
    expect(lines).toEqual([
      'CORS: refused a preflight from https://shop.example, which is not in ALLOWED_ORIGINS; if it is a publisher page, set ALLOWED_ORIGINS=https://publisher.example,http://localhost:5173,https://shop.example',
    ])
    await preflight(ALLOWED[0] as string)
    expect(lines).toHaveLength(1)
    clock = 60_000
    await preflight('https://shop.example')
    expect(lines).toHaveLength(2)
    // A flood of made-up origins: at most 100 origins are logged per window (shop.example holds one slot).
    for (let i = 0; i < 150; i++) await preflight(`https://x${i}.example`)
    expect(lines).toHaveLength(2 + 99)
    clock = 120_000
    await preflight('https://later.example')
    expect(lines.at(-1)).toContain('https://later.example')
  })
})
