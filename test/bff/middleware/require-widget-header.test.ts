/** @module Every POST carries X-Offer-Widget (any non-empty value), so a cross-site POST is always preflighted. */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/bff/logger.ts'
import { requireWidgetHeader } from '../../../src/bff/middleware/require-widget-header/index.ts'
import { onHttpError } from '../../../src/http/errors.ts'

function app() {
  const a = new Hono()
  a.onError(onHttpError(createLogger({ level: 'silent' })))
  a.use('*', requireWidgetHeader())
  a.on(['GET', 'POST'], '/x', (c) => c.json({ ok: true }))
  return a
}

describe('requireWidgetHeader', () => {
  it('refuses a POST without the header, or with a blank one, with 403 forbidden', async () => {
    for (const headers of [{}, { 'x-offer-widget': '  ' }] as Record<string, string>[]) {
      const res = await app().request('/x', { method: 'POST', headers })
      expect(res.status).toBe(403)
      expect(await res.json()).toMatchObject({ code: 'forbidden' })
    }
  })

  it('lets a POST with any value through, and GETs without it', async () => {
    expect(
      (await app().request('/x', { method: 'POST', headers: { 'x-offer-widget': '1.2.3' } })).status,
    ).toBe(200)
    expect((await app().request('/x')).status).toBe(200)
  })

  it('lets a POST carrying Authorization through (a server-to-server postback; the header forces a preflight too)', async () => {
    const res = await app().request('/x', { method: 'POST', headers: { Authorization: 'Bearer t' } })
    expect(res.status).toBe(200)
    expect((await app().request('/x', { method: 'POST', headers: { Authorization: ' ' } })).status).toBe(403)
  })
})
