/**
 * @module Issue 44: a lead fanned out to more than 10 partners prints no `MaxListenersExceededWarning`. Every
 * partner call listens for the lead's stop signal (shutdown or a lost lease); that signal is shared by them all.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { type Ledger, openLedger } from '../../src/ledger/index.ts'
import type { SimulatedPartnerSpec } from '../../src/partner-kit/index.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { type Harness, startHarness, submitAndSettle } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const PARTNERS = 30
let ledger: Ledger
let h: Harness | undefined

beforeAll(async () => {
  ledger = await openLedger({ inMemory: true })
})
afterAll(async () => {
  await h?.close()
  await ledger.close()
})

it(`fans a lead out to ${PARTNERS} loopback partners with no MaxListenersExceededWarning`, async () => {
  const warnings: Error[] = []
  const onWarning = (warning: Error) => warnings.push(warning)
  process.on('warning', onWarning)
  try {
    // Half first look (no offers, so the lead goes on) and half second look: more than 10 in each tier.
    const partners: SimulatedPartnerSpec[] = Array.from({ length: PARTNERS }, (_, i) => ({
      id: `p-${i}`,
      name: `Partner ${i}`,
      tier: i < PARTNERS / 2 ? 'first' : 'second',
      behavior: i < PARTNERS / 2 ? 'reject' : 'approve',
      latencyMs: 0,
    }))
    h = await startHarness({ ledger, partners, clock: createFakeClock() })
    const { final } = await submitAndSettle(h)
    for (let i = 0; i < PARTNERS; i++) expect(h.partners.requestCount(`p-${i}`)).toBe(1)
    expect(final.offers.length).toBeGreaterThan(0)
    // process.emitWarning emits on the next tick: let it through before looking.
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', onWarning)
  }
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map(String)).toEqual([])
})
