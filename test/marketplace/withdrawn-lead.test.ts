/**
 * What the visitor was told is what happened (docs/decisions/0089-write-ahead-ledger.md), on fake time and on
 * both ledgers: a lead answered 503 because its write was not confirmed in time is withdrawn for good. Its
 * create stalls past the caller's timeout, the withdrawal commits first and finds no row, then the create
 * commits: no replica, this one included, ever takes that lead over and sends it, and it ends `failed`.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Ledger, LedgerError } from '../../src/ledger/index.ts'
import { leads } from '../../src/ledger/schema.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import { startFakeTimeMarket } from './support/fake-time-harness.ts'
import { makeLead } from './support/harness.ts'

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

const LEASE_MS = 3_000
const LEDGER_TIMEOUT_MS = 2_000

describe.each(LEDGER_DRIVERS)('a lead withdrawn after a 503 on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  beforeAll(async () => {
    clock = createFakeClock()
    ledger = await driver.open({ timers: clock.timers })
  })
  afterAll(async () => {
    await ledger.close()
  })

  it('its create committing after the withdrawal never reaches a partner, here or on takeover', async () => {
    let release: () => void = () => {}
    const stalled = new Promise<void>((resolve) => {
      release = resolve
    })
    let lateCreate: Promise<unknown> | undefined
    let withdrawn: Promise<unknown> | undefined
    // The statement outlives its caller: the caller gives up at the timeout; the write lands after the
    // withdrawal has committed (which then found no row to fail).
    const slow: Ledger = Object.create(ledger, {
      createLead: {
        value: (...args: Parameters<Ledger['createLead']>) => {
          lateCreate = stalled.then(() => ledger.createLead(...args))
          return new Promise((_, reject) =>
            clock.timers.setTimeout(
              () => reject(new LedgerError('createLead', 'timeout', true)),
              LEDGER_TIMEOUT_MS,
            ),
          )
        },
      },
      withdrawLead: {
        value: (...args: Parameters<Ledger['withdrawLead']>) => {
          withdrawn = ledger.withdrawLead(...args)
          return withdrawn
        },
      },
    })
    const m = await startFakeTimeMarket({
      ledger: slow,
      clock,
      partners: [{ id: 'lender', tier: 'first', latencyMs: 200, status: 'approved', rate: 20 }],
      config: { leaseMs: LEASE_MS },
    })
    try {
      const answered = m.submit(makeLead())
      await clock.runUntil(answered)
      const res = await answered
      expect(res.status).toBe(503)
      await clock.runUntil(withdrawn ?? Promise.resolve())
      release()
      await clock.runUntil(lateCreate?.catch(() => {}) ?? Promise.resolve())
      // Well past the lease: every keeper round in between could have claimed it.
      for (let i = 0; i < 10; i++) await clock.tick(LEASE_MS)
      expect(m.received('lender')).toBe(0)
      const written = await ledger.db.select().from(leads).where(eq(leads.status, 'pending'))
      expect(written).toEqual([])
    } finally {
      await m.close()
    }
  })
})
