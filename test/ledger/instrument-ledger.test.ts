/**
 * @module The ledger's metrics: every call timed by operation, failures counted by operation and driver
 * code (never the message, which may name a table or value), and the call's own result or error passed on.
 */
import { Registry } from 'prom-client'
import { expect, it } from 'vitest'
import { instrumentLedger, type Ledger, LedgerError } from '../../src/ledger/index.ts'

it('times each call and counts a failure under its operation and code, passing the error on', async () => {
  let down = false
  const calls: string[] = []
  const ledger = {
    driver: 'postgres',
    timeoutMs: 1000,
    async findOffer(id: string) {
      calls.push(id)
      if (down) throw new LedgerError('findOffer', 'ECONNREFUSED', true)
      return undefined
    },
    async recordClick() {
      throw new Error('a message that must not become a label: 987-65-4329')
    },
    async close() {},
  } as unknown as Ledger
  const registry = new Registry()
  const instrumented = instrumentLedger(ledger, registry)
  expect(instrumented.driver).toBe('postgres')

  await expect(instrumented.findOffer('o-1')).resolves.toBeUndefined()
  down = true
  await expect(instrumented.findOffer('o-2')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  await expect(
    instrumented.recordClick({ offerId: 'o', leadId: 'l', partnerId: 'p', clickedAt: new Date() }),
  ).rejects.toThrow('a message')
  expect(calls).toEqual(['o-1', 'o-2'])

  const text = await registry.metrics()
  expect(text).toMatch(/^ledger_call_duration_seconds_count\{operation="findOffer"\} 2$/m)
  expect(text).toMatch(/^ledger_call_failures_total\{operation="findOffer",code="ECONNREFUSED"\} 1$/m)
  expect(text).toMatch(/^ledger_call_failures_total\{operation="recordClick",code="other"\} 1$/m)
  // Every operation has its series from the start, so a dashboard shows an idle ledger as 0, not "no data".
  expect(text).toMatch(/^ledger_call_duration_seconds_count\{operation="claimLeads"\} 0$/m)
  expect(text).not.toContain('987-65-4329')
})
