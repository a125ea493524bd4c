/**
 * @module `/readyz` tells a cut dependency within 1 s (it was remembered 5 s: "ready" while leads got 503).
 */
import { expect, it } from 'vitest'
import { createMetrics } from '../../../src/bff/metrics.ts'
import { opsRoutes } from '../../../src/bff/routes/ops.ts'
import type { BffServices } from '../../../src/bff/services.ts'

it('reflects a ledger that went away, and came back, within 1 s', async () => {
  let now = 1_000_000
  let ledgerUp = true
  const services = {
    upstream: { checkReady: async () => undefined },
    metrics: createMetrics(),
  } as unknown as BffServices
  const app = opsRoutes(services, {
    timers: { now: () => now },
    checks: [
      {
        name: 'ledger',
        check: async () => {
          if (!ledgerUp) throw new Error('connection refused')
        },
      },
    ],
  })
  expect((await app.request('/readyz')).status).toBe(200)
  ledgerUp = false
  now += 1000
  const cut = await app.request('/readyz')
  expect(cut.status).toBe(200)
  expect(await cut.json()).toMatchObject({ status: 'degraded', code: 'ledger_unavailable' })
  // The same answer on /metrics, by dependency, for the readiness and ledger alerts.
  const scraped = await services.metrics.registry.metrics()
  expect(scraped).toMatch(/^bff_ready 0$/m)
  expect(scraped).toMatch(/^bff_dependency_ready\{dependency="ledger"\} 0$/m)
  expect(scraped).toMatch(/^bff_dependency_ready\{dependency="upstream"\} 1$/m)
  ledgerUp = true
  now += 1000
  expect((await app.request('/readyz')).status).toBe(200)
  expect(await services.metrics.registry.metrics()).toMatch(
    /^bff_dependency_ready\{dependency="ledger"\} 1$/m,
  )
})

it('never remembers longer than 1 s, whatever it is asked', async () => {
  let now = 0
  let up = true
  const services = upstreamServices(() => up)
  const app = opsRoutes(services, { timers: { now: () => now }, readyCacheMs: 5000 })
  expect((await app.request('/readyz')).status).toBe(200)
  up = false
  now += 1000
  expect(await (await app.request('/readyz')).json()).toMatchObject({
    status: 'degraded',
    failing: ['upstream'],
  })
})

it('answers 503 for a required dependency that is down, and 400 naming the dependencies for one it does not have', async () => {
  let up = true
  const services = upstreamServices(() => up)
  let now = 0
  const app = opsRoutes(services, { timers: { now: () => now } })
  expect((await app.request('/readyz?require=upstream')).status).toBe(200)
  up = false
  now += 1000
  const required = await app.request('/readyz?require=upstream')
  expect(required.status).toBe(503)
  expect(await required.json()).toMatchObject({ status: 'not_ready', code: 'upstream_unavailable' })
  expect((await app.request('/readyz')).status).toBe(200)
  const unknown = await app.request('/readyz?require=upstream,ledger')
  expect(unknown.status).toBe(400)
  expect((await unknown.json()).message).toMatch(
    /require names ledger, not a dependency of this replica; it has upstream/,
  )
})

/** The services `/readyz` reads: an upstream whose check passes while `up()` says so, and metrics. */
function upstreamServices(up: () => boolean): BffServices {
  return {
    upstream: {
      checkReady: async () => {
        if (!up()) throw new Error('down')
      },
    },
    metrics: createMetrics(),
  } as unknown as BffServices
}
