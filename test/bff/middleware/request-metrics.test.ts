/**
 * @module Request metrics: one count and one duration per answer, labelled by method, the route pattern
 * that answered (never the raw path, which would make a series per uuid) and the status actually sent,
 * errors and unmatched paths included.
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/bff/logger.ts'
import { createMetrics } from '../../../src/bff/metrics.ts'
import { requestMetrics } from '../../../src/bff/middleware/request-metrics/index.ts'
import { httpError, onHttpError, onHttpNotFound } from '../../../src/http/errors.ts'

const UUID_A = '2f1c7b7e-8f1e-4a7a-9a55-0d6a8d2f3b11'
const UUID_B = '9b0e4c1d-3a2f-4e5b-8c6d-7e8f9a0b1c2d'

/** `now` advances 250 ms per reading: every request takes exactly 0.25 s. */
function meteredApp() {
  const metrics = createMetrics()
  let clock = 1_000
  const app = new Hono()
  app.onError(onHttpError(createLogger({ level: 'silent' })))
  app.notFound(onHttpNotFound)
  app.use('*', requestMetrics({ metrics, timers: { now: () => (clock += 250) } }))
  app.get('/api/offer-searches/:uuid', (c) => c.json({ uuid: c.req.param('uuid') }))
  app.post('/api/offer-searches', (c) => c.json({ created: true }, 201))
  app.get('/api/limited', () => {
    throw httpError(429, 'rate_limited', 'Slow down', { headers: { 'retry-after': '3' } })
  })
  app.get('/api/broken', () => {
    throw new Error('boom')
  })
  app.get('/api/thrown-text', () => {
    throw 'not an Error'
  })
  const reports = new Hono()
  reports.get('/partners/:id', (c) => c.text(c.req.param('id')))
  app.route('/api/reports', reports)
  // Registered last, it matches every /api path too, but answers only those no route above claimed.
  app.all('/api/*', (c) => c.json({ code: 'not_found', message: 'No such API' }, 404))
  return { app, metrics }
}

async function counts(metrics: ReturnType<typeof createMetrics>) {
  return (await metrics.httpRequests.get()).values.map(({ labels, value }) => ({ ...labels, value }))
}

async function durations(metrics: ReturnType<typeof createMetrics>, name: string) {
  return (await metrics.httpDuration.get()).values
    .filter((v) => v.metricName === name)
    .map(({ labels, value }) => ({ ...labels, value }))
}

describe('requestMetrics', () => {
  it('labels by the route pattern, so two uuids are one series', async () => {
    const { app, metrics } = meteredApp()
    expect((await app.request(`/api/offer-searches/${UUID_A}`)).status).toBe(200)
    expect((await app.request(`/api/offer-searches/${UUID_B}`)).status).toBe(200)
    expect(await counts(metrics)).toEqual([
      { method: 'GET', route: '/api/offer-searches/:uuid', status: '200', value: 2 },
    ])
    const text = await metrics.registry.metrics()
    expect(text).not.toContain(UUID_A)
    expect(text).not.toContain(UUID_B)
  })

  it('labels a route of a sub-app by its full pattern, and the method and status sent', async () => {
    const { app, metrics } = meteredApp()
    await app.request('/api/offer-searches', { method: 'POST' })
    await app.request('/api/reports/partners/lender')
    expect(await counts(metrics)).toEqual([
      { method: 'POST', route: '/api/offer-searches', status: '201', value: 1 },
      { method: 'GET', route: '/api/reports/partners/:id', status: '200', value: 1 },
    ])
  })

  it('counts thrown errors with the status the client got: a refusal, a crash', async () => {
    const { app, metrics } = meteredApp()
    const limited = await app.request('/api/limited')
    expect(limited.status).toBe(429)
    const broken = await app.request('/api/broken')
    expect(broken.status).toBe(500)
    expect(await counts(metrics)).toEqual([
      { method: 'GET', route: '/api/limited', status: '429', value: 1 },
      { method: 'GET', route: '/api/broken', status: '500', value: 1 },
    ])
  })

  it('counts a throw that escapes the chain (not an Error, so onError never sees it) as the 500 it becomes', async () => {
    const { app, metrics } = meteredApp()
    await expect(app.request('/api/thrown-text')).rejects.toBe('not an Error')
    expect(await counts(metrics)).toEqual([
      { method: 'GET', route: '/api/thrown-text', status: '500', value: 1 },
    ])
  })

  it('counts a path under the route that answered it, an unmatched one under /*, never the raw path', async () => {
    const { app, metrics } = meteredApp()
    expect((await app.request(`/api/nope/${UUID_A}`)).status).toBe(404)
    expect((await app.request('/api/offer-searches', { method: 'DELETE' })).status).toBe(404)
    expect((await app.request(`/elsewhere/${UUID_A}`)).status).toBe(404)
    expect(await counts(metrics)).toEqual([
      { method: 'GET', route: '/api/*', status: '404', value: 1 },
      { method: 'DELETE', route: '/api/*', status: '404', value: 1 },
      { method: 'GET', route: '/*', status: '404', value: 1 },
    ])
    expect(await metrics.registry.metrics()).not.toContain(UUID_A)
  })

  it('observes the time from before the handlers to after them, in seconds, with the same labels', async () => {
    const { app, metrics } = meteredApp()
    await app.request(`/api/offer-searches/${UUID_A}`)
    await app.request('/api/broken')
    await app.request('/api/broken')
    expect(await durations(metrics, 'bff_http_request_duration_seconds_sum')).toEqual([
      { method: 'GET', route: '/api/offer-searches/:uuid', status: '200', value: 0.25 },
      { method: 'GET', route: '/api/broken', status: '500', value: 0.5 },
    ])
    expect(await durations(metrics, 'bff_http_request_duration_seconds_count')).toEqual([
      { method: 'GET', route: '/api/offer-searches/:uuid', status: '200', value: 1 },
      { method: 'GET', route: '/api/broken', status: '500', value: 2 },
    ])
    // 0.25 s falls in the 0.25 bucket and above, not in the 0.1 one.
    const buckets = (await durations(metrics, 'bff_http_request_duration_seconds_bucket')).filter(
      (b) => b.route === '/api/offer-searches/:uuid',
    )
    expect(buckets.find((b) => (b as { le?: number }).le === 0.1)?.value).toBe(0)
    expect(buckets.find((b) => (b as { le?: number }).le === 0.25)?.value).toBe(1)
  })
})
