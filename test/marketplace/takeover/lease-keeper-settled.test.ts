/**
 * @module The lease loop never calls a lead it settled, or is settling, taken over: a renewal that finds such a
 * lead no longer pending comes while its lease, as this replica last renewed it, still runs, so no replica
 * can have claimed it (claims take only leases that ran out). A lead whose lease did run out (the ledger was
 * away for longer than a lease) is still handed over when another replica has it. On fake time.
 */
import { describe, expect, it, vi } from 'vitest'
import { startLeaseKeeper } from '../../../src/marketplace/takeover/lease-keeper.ts'
import { createFakeClock } from '../../support/fake-clock.ts'

const TAKEN_OVER = 'second-look lead taken over by another replica; this one stops it'

/**
 * One lead, `lead-1`, run by this replica; `pending` says whether the ledger still has it pending under this
 * owner (a settle this process wrote makes it false), `away` makes every ledger call fail.
 */
function keeperWithOneLead() {
  const clock = createFakeClock()
  const state = { pending: true, away: false, running: new Set(['lead-1']) }
  const ledger = {
    renewLeases: vi.fn(async (_owner: string, ids: readonly string[], _until: Date) => {
      if (state.away) throw new Error('ledger away')
      return state.pending ? [...ids] : []
    }),
    claimLeads: vi.fn(async () => []),
    ping: vi.fn(async () => {
      if (state.away) throw new Error('ledger away')
    }),
  }
  const onLost = vi.fn()
  const logger = { info: vi.fn(), warn: vi.fn() }
  const keeper = startLeaseKeeper({
    ledger,
    owner: 'me',
    leaseMs: 3_000,
    timers: clock.timers,
    logger,
    running: () => state.running,
    mayClaim: () => true,
    onLost,
    onClaimed: () => {},
  })
  const warnedTakeover = () => logger.warn.mock.calls.some(([, message]) => message === TAKEN_OVER)
  return { clock, state, ledger, onLost, keeper, warnedTakeover }
}

describe('a lead this replica settles is not taken over', () => {
  it('a renewal just after this process settled the lead, while its run is still finishing, neither warns nor stops it', async () => {
    const { clock, state, ledger, onLost, keeper, warnedTakeover } = keeperWithOneLead()
    await clock.tick(1_000)
    expect(ledger.renewLeases).toHaveBeenCalledTimes(1)
    // The settle commits about 100 ms before the next round; the run is still writing its last lines.
    await clock.tick(900)
    state.pending = false
    await clock.tick(100)
    expect(ledger.renewLeases).toHaveBeenCalledTimes(2)
    expect(warnedTakeover()).toBe(false)
    expect(onLost).not.toHaveBeenCalled()
    state.running.clear()
    await clock.tick(3_000)
    expect(warnedTakeover()).toBe(false)
    await keeper.stop()
  })

  it('a lead settled while the renewal was in flight (gone from the running leads) is not reported', async () => {
    const { clock, state, ledger, onLost, keeper, warnedTakeover } = keeperWithOneLead()
    ledger.renewLeases.mockImplementationOnce(async () => {
      // The settle commits first; the run has ended by the time the renewal answers.
      state.pending = false
      state.running.clear()
      return []
    })
    await clock.tick(1_000)
    expect(warnedTakeover()).toBe(false)
    expect(onLost).not.toHaveBeenCalled()
    await keeper.stop()
  })

  it('a lead whose lease ran out while the ledger was away, and that another replica has now, is still handed over', async () => {
    const { clock, state, onLost, keeper, warnedTakeover } = keeperWithOneLead()
    await clock.tick(1_000)
    state.away = true
    await clock.tick(4_000)
    expect(onLost).not.toHaveBeenCalled()
    // Back, and another replica claimed the lead meanwhile: this one no longer holds it.
    state.away = false
    state.pending = false
    await clock.tick(1_000)
    expect(warnedTakeover()).toBe(true)
    expect(onLost.mock.calls).toEqual([['lead-1']])
    await keeper.stop()
  })

  it('a lead found not held is handed over once the lease this replica gave it has run out, if it still runs', async () => {
    const { clock, state, onLost, keeper } = keeperWithOneLead()
    await clock.tick(1_000)
    state.pending = false
    // Renewed last at 1 000 until 4 000: up to then no replica could claim it (a claim takes a lease that
    // ended before its now).
    await clock.tick(3_000)
    expect(onLost).not.toHaveBeenCalled()
    // Past it, a lead still running and not held is another's.
    await clock.tick(1_000)
    expect(onLost.mock.calls).toEqual([['lead-1']])
    await keeper.stop()
  })
})
