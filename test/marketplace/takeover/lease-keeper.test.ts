/**
 * The lease loop on fake time: it renews what this replica runs every third of a lease, hands over the
 * leads another replica took, claims only when it may (not while draining), and survives a failed round;
 * after an outage it claims nothing for a lease, so live owners renew first (issue 44).
 */
import { describe, expect, it, vi } from 'vitest'
import type { ClaimedLead } from '../../../src/ledger/index.ts'
import { LedgerError } from '../../../src/ledger/ledger-error.ts'
import { startLeaseKeeper } from '../../../src/marketplace/takeover/lease-keeper.ts'
import { createFakeClock } from '../../support/fake-clock.ts'

const claimedLead = (id: string) => ({ lead: { id, searchUuid: id } }) as unknown as ClaimedLead

function keeperOn(overrides: { held?: string[]; mayClaim?: boolean; failRenew?: boolean } = {}) {
  const clock = createFakeClock()
  const away = () => {
    if (overrides.failRenew) throw new Error('ledger away')
  }
  const ledger = {
    renewLeases: vi.fn(async (_owner: string, ids: readonly string[], _until: Date) => {
      away()
      return ids.filter((id) => (overrides.held ?? ids).includes(id))
    }),
    claimLeads: vi.fn(async () => {
      away()
      return [claimedLead('orphan')]
    }),
    ping: vi.fn(async () => away()),
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
  return { clock, ledger, onLost, onClaimed, logger, keeper, overrides }
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

  it('while the ledger is still being opened, rounds end quietly, and once it is open it claims at once', async () => {
    const { clock, ledger, logger, onClaimed, keeper } = keeperOn()
    let opening = true
    ledger.ping.mockImplementation(async () => {
      if (opening) throw new LedgerError('ping', 'opening', true, 'the ledger is still being opened')
    })
    ledger.claimLeads.mockClear()
    await clock.tick(3_000)
    expect(ledger.ping).toHaveBeenCalledTimes(3)
    // A claim would have waited out its timeout on a ledger being opened.
    expect(ledger.claimLeads).not.toHaveBeenCalled()
    expect(logger.warn).not.toHaveBeenCalled()
    opening = false
    await clock.tick(1_000)
    // Opening is not an outage: no lease to wait before claiming.
    expect(onClaimed).toHaveBeenCalledWith(claimedLead('orphan'))
    expect(logger.info).not.toHaveBeenCalledWith(
      expect.anything(),
      expect.stringContaining('claims wait a lease'),
    )
    await clock.tick(1_000)
    // Asked first only until it first answered.
    expect(ledger.ping).toHaveBeenCalledTimes(4)
    await keeper.stop()
  })

  it('a failed renewal keeps the leads: only a renewal that finds the lease gone stops one', async () => {
    const { clock, onLost, keeper } = keeperOn({ failRenew: true })
    await clock.tick(5_000)
    expect(onLost).not.toHaveBeenCalled()
    await keeper.stop()
  })

  it('after an outage it renews at once but claims only a lease after it reached the ledger again', async () => {
    const { clock, ledger, onClaimed, logger, keeper, overrides } = keeperOn({ failRenew: true })
    await clock.tick(6_000)
    expect(onClaimed).not.toHaveBeenCalled()
    overrides.failRenew = false
    await clock.tick(1_000)
    // Back: the owner's renewal goes through this round; the claim waits.
    expect(ledger.renewLeases).toHaveBeenLastCalledWith(
      'me',
      ['mine-1', 'mine-2'],
      new Date(clock.now() + 3_000),
    )
    expect(ledger.ping).toHaveBeenCalledTimes(1)
    expect(logger.info).toHaveBeenCalledWith(
      expect.anything(),
      expect.stringContaining('claims wait a lease'),
    )
    const backAt = clock.now()
    await clock.tick(2_000)
    expect(ledger.claimLeads).not.toHaveBeenCalled()
    expect(onClaimed).not.toHaveBeenCalled()
    await clock.tick(1_000)
    expect(clock.now() - backAt).toBe(3_000)
    expect(onClaimed).toHaveBeenCalledWith(claimedLead('orphan'))
    await keeper.stop()
  })
})
