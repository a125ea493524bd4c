/**
 * The lease loop on fake time: it renews what this replica runs every third of a lease, hands over the
 * leads another replica took, claims only when it may (not while draining), and survives a failed round.
 */
import { describe, expect, it, vi } from 'vitest'
import type { ClaimedLead } from '../../../src/ledger/index.ts'
import { startLeaseKeeper } from '../../../src/marketplace/takeover/lease-keeper.ts'
import { createFakeClock } from '../../ledger/support/fake-clock.ts'

const claimedLead = (id: string) => ({ lead: { id, searchUuid: id } }) as unknown as ClaimedLead

function keeperOn(overrides: { held?: string[]; mayClaim?: boolean; failRenew?: boolean } = {}) {
  const clock = createFakeClock()
  const ledger = {
    renewLeases: vi.fn(async (_owner: string, ids: readonly string[], _until: Date) => {
      if (overrides.failRenew) throw new Error('ledger away')
      return ids.filter((id) => (overrides.held ?? ids).includes(id))
    }),
    claimLeads: vi.fn(async () => [claimedLead('orphan')]),
  }
  const onLost = vi.fn()
  const onClaimed = vi.fn()
  const logger = { info: vi.fn(), warn: vi.fn() }
  const keeper = startLeaseKeeper({
    ledger,
    owner: 'me',
    leaseMs: 3_000,
    timers: clock.timers,
    logger,
    running: () => ['mine-1', 'mine-2'],
    mayClaim: () => overrides.mayClaim ?? true,
    onLost,
    onClaimed,
  })
  return { clock, ledger, onLost, onClaimed, logger, keeper }
}

describe('lease keeper', () => {
  it('renews every third of a lease until now + lease, and claims what ran out', async () => {
    const { clock, ledger, onClaimed, keeper } = keeperOn()
    await clock.tick(999)
    expect(ledger.renewLeases).not.toHaveBeenCalled()
    await clock.tick(1)
    expect(ledger.renewLeases).toHaveBeenCalledWith('me', ['mine-1', 'mine-2'], new Date(clock.now() + 3_000))
    expect(onClaimed).toHaveBeenCalledWith(claimedLead('orphan'))
    await clock.tick(1_000)
    expect(ledger.renewLeases).toHaveBeenCalledTimes(2)
    await keeper.stop()
    await clock.tick(5_000)
    expect(ledger.renewLeases).toHaveBeenCalledTimes(2)
  })

  it('hands over a lead whose lease another replica took', async () => {
    const { clock, onLost, keeper } = keeperOn({ held: ['mine-2'] })
    await clock.tick(1_000)
    expect(onLost.mock.calls).toEqual([['mine-1']])
    await keeper.stop()
  })

  it('claims nothing while draining, and a poke runs a round at once', async () => {
    const { ledger, keeper } = keeperOn({ mayClaim: false })
    await keeper.poke()
    expect(ledger.renewLeases).toHaveBeenCalledTimes(1)
    expect(ledger.claimLeads).not.toHaveBeenCalled()
    await keeper.stop()
  })

  it('a failed round is logged and the next one runs', async () => {
    const { clock, ledger, logger, keeper } = keeperOn({ failRenew: true })
    await clock.tick(2_000)
    expect(ledger.renewLeases).toHaveBeenCalledTimes(2)
    expect(logger.warn).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('lease round failed'))
    await keeper.stop()
  })
})
