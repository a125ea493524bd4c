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
  expect(cut.status).toBe(503)
  expect((await cut.json()).code).toBe('ledger_unavailable')
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
  const services = {
    upstream: {
      checkReady: async () => {
        if (!up) throw new Error('down')
      },
    },
    metrics: createMetrics(),
  } as unknown as BffServices
  const app = opsRoutes(services, { timers: { now: () => now }, readyCacheMs: 5000 })
  expect((await app.request('/readyz')).status).toBe(200)
  up = false
  now += 1000
  expect((await app.request('/readyz')).status).toBe(503)
})
