/** @module Security headers on every answer; the API keeps a same-origin resource policy, assets are embeddable. */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { securityHeaders } from '../../../src/bff/middleware/security-headers/index.ts'

function app() {
  const a = new Hono()
  a.use('*', securityHeaders())
  a.get('/api/x', (c) => c.json({ ok: true }))
  a.get('/widget.js', (c) => c.text('x'))
  return a
}

describe('securityHeaders', () => {
  it('sets the hono/secure-headers default set', async () => {
    const res = await app().request('/api/x')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/)
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin')
  })

  it('lets other sites embed assets (widget script, logos, pixels)', async () => {
    const res = await app().request('/widget.js')
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
  })
})
