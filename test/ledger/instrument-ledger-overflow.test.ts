/**
 * @module A search event the full search-event queue refuses is counted in `ledger_call_failures_total` under
 * its own code, `overflow`, never `other`: the ledger-failure alert leaves it out (deploy/prometheus), while
 * an unknown error still counts as `other`.
 */
import { Registry } from 'prom-client'
import { expect, it } from 'vitest'
import { instrumentLedger, type Ledger, LedgerError } from '../../src/ledger/index.ts'
import { SEARCH_EVENTS_OVERFLOW } from '../../src/ledger/search-event-queue.ts'

it('counts a refusal of the full search-event queue as code overflow', async () => {
  const ledger = {
    driver: 'pglite',
    timeoutMs: 1000,
    async recordSearchEvents() {
      throw new LedgerError(
        'recordSearchEvents',
        SEARCH_EVENTS_OVERFLOW,
        true,
        'more than 20000 rows waiting',
      )
    },
    async close() {},
  } as unknown as Ledger
  const registry = new Registry()
  const instrumented = instrumentLedger(ledger, registry)

  await expect(instrumented.recordSearchEvents([])).rejects.toMatchObject({ code: SEARCH_EVENTS_OVERFLOW })
  await expect(instrumented.recordSearchEvents([])).rejects.toMatchObject({ code: SEARCH_EVENTS_OVERFLOW })

  const text = await registry.metrics()
  expect(text).toMatch(/^ledger_call_failures_total\{operation="recordSearchEvents",code="overflow"\} 2$/m)
  expect(text).not.toMatch(/code="other"/)
})
