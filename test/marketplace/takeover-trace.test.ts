/**
 * @module A lead taken over is a trace of its own (issue 33): when a replica's run gives up on a lead the
 * ledger would not take, the lease keeper's takeover settles it under a root `second-look takeover` span
 * (the lead's id, how it was taken over), with the auction and the ledger's settle below it. PostgreSQL cut
 * by a TCP proxy on fake time, as in ledger-faults.test.ts; spans collected in memory by the real SDK.
 */
import { context, trace } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { Registry } from 'prom-client'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { instrumentLedger } from '../../src/ledger/index.ts'
import { LEDGER_DRIVERS, type LedgerDriver } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { announceSkip, unsetVariable } from '../support/skip-notice.ts'
import { type ScriptedPartner, startFakeTimeMarket } from './support/fake-time-harness.ts'
import { makeLead } from './support/harness.ts'

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

const PARTNERS: ScriptedPartner[] = [
  { id: 'alpha', tier: 'first', latencyMs: 2_000, status: 'approved', rate: 11 },
  { id: 'bravo', tier: 'first', latencyMs: 3_000, status: 'rejected' },
]
const postgres = LEDGER_DRIVERS.find((driver) => driver.name === 'postgres')
if (postgres === undefined) {
  announceSkip(
    'the takeover trace test',
    unsetVariable('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'),
  )
}

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
provider.register()
afterAll(async () => {
  await provider.shutdown()
  trace.disable()
  context.disable()
})

describe.skipIf(postgres === undefined)('a lead taken over on PostgreSQL', () => {
  it('is settled in a trace of its own, rooted at second-look takeover', async () => {
    const clock = createFakeClock()
    const db = await (postgres as LedgerDriver).openFaulty({ timers: clock.timers, timeoutMs: 2_000 })
    // Instrumented as `startSecondLook` does in the server: ledger calls are spans.
    const m = await startFakeTimeMarket({
      ledger: instrumentLedger(db.ledger, new Registry()),
      clock,
      partners: PARTNERS,
      config: { writeRetryMs: 5_000 },
    })
    try {
      const res = await m.submit(makeLead())
      const { rateTable } = createdSearchSchema.parse(await res.json())
      await Promise.all(PARTNERS.map((p) => m.whenReceived(p.id)))
      await db.down()
      await clock.tick(15_000)
      await db.up()
      await clock.runUntil(m.marketplace.settled(rateTable.uuid))
      // Its run gave up; once its lease has run out a lease round takes it over and settles it.
      const takeover = () => exporter.getFinishedSpans().find((s) => s.name === 'second-look takeover')
      for (let waited = 0; waited < 60_000 && !takeover(); waited += 500) {
        await clock.tick(500)
        // A round trip to the database between ticks, as the lease keeper's own calls need one.
        await db.ledger.ping()
      }
      const root = takeover()
      expect(
        root,
        exporter
          .getFinishedSpans()
          .map((s) => s.name)
          .join(', '),
      ).toBeDefined()
      expect(root?.parentSpanContext).toBeUndefined()
      expect(root?.attributes).toMatchObject({
        'second_look.lead_id': rateTable.leadUuid,
        'offer_search.uuid': rateTable.uuid,
        'second_look.takeover': 'settled',
      })
      const inTakeover = exporter
        .getFinishedSpans()
        .filter((s) => s.spanContext().traceId === root?.spanContext().traceId)
      const under = (name: string) => inTakeover.find((s) => s.name === name)?.parentSpanContext?.spanId
      expect(under('second-look auction')).toBe(root?.spanContext().spanId)
      expect(under('ledger closeTier')).toBe(root?.spanContext().spanId)
      // The lead's first run was another trace: the intake's.
      const run = exporter.getFinishedSpans().find((s) => s.name === 'second-look lead')
      expect(run?.spanContext().traceId).not.toBe(root?.spanContext().traceId)
    } finally {
      await db.up()
      await clock.runUntil(m.close())
      await db.close()
    }
  })
})
