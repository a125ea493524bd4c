/**
 * Each tier gets its window (docs/partner-interface.md: 12 s per partner; second look when first look returned no offers),
 * on fake time: first look closes when every first-look partner has answered or at its deadline, and each
 * second-look partner has its whole window from the moment it is sent the lead.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { partnerRequests } from '../../src/ledger/schema.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import { type ScriptedPartner, startFakeTimeMarket } from './support/fake-time-harness.ts'
import { makeLead } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

describe.each(LEDGER_DRIVERS)('tier windows on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  beforeAll(async () => {
    clock = createFakeClock()
    ledger = await driver.open({ timers: clock.timers })
  })
  afterAll(async () => {
    await ledger.close()
  })

  async function run(partners: ScriptedPartner[], config = {}) {
    const m = await startFakeTimeMarket({ ledger, clock, partners, config })
    const res = await m.submit(makeLead())
    expect(res.status).toBe(201)
    const created = createdSearchSchema.parse(await res.json())
    const started = clock.now()
    const rows = async () => {
      const all = await ledger.db
        .select()
        .from(partnerRequests)
        .where(eq(partnerRequests.leadId, created.rateTable.leadUuid))
      return Object.fromEntries(all.map((r) => [r.partnerId, r]))
    }
    return { m, created, started, rows }
  }

  it('a first-look partner answering at 10 s leaves a second-look partner its whole 12 s: a 3 s one is approved', async () => {
    const { m, created, started, rows } = await run([
      { id: 'first-10s', tier: 'first', latencyMs: 10_000, status: 'rejected' },
      { id: 'second-3s', tier: 'second', latencyMs: 3_000, status: 'approved', rate: 20 },
    ])
    try {
      await m.whenReceived('first-10s')
      await clock.tick(10_000)
      await m.whenReceived('second-3s')
      const second = (await rows())['second-3s']
      expect(second?.status).toBe('pending')
      // Sent when first look closed, at 10 s.
      expect((second?.sentAt.getTime() ?? 0) - started).toBe(10_000)
      await clock.tick(3_000)
      await m.marketplace.settled(created.rateTable.uuid)
      const after = await rows()
      expect(after['first-10s']).toMatchObject({ status: 'rejected', latencyMs: 10_000 })
      expect(after['second-3s']).toMatchObject({ status: 'approved', latencyMs: 3_000 })
      const final = await (await m.poll(created.rateTable.uuid, created.accessToken)).json()
      expect(final.pendingResponses).toEqual([])
      expect(
        final.offers.map((o: { financialInstitutionUuid: string }) => o.financialInstitutionUuid),
      ).toEqual(['second-3s'])
    } finally {
      await m.close()
    }
  })

  it('a first-look partner still out at the first-look deadline times out there, and second look still runs', async () => {
    const { m, created, started, rows } = await run([
      { id: 'first-13s', tier: 'first', latencyMs: 13_000, status: 'approved' },
      { id: 'second-11s', tier: 'second', latencyMs: 11_000, status: 'approved' },
    ])
    try {
      await m.whenReceived('first-13s')
      await clock.tick(12_000)
      await m.whenReceived('second-11s')
      // The second-look partner's own 12 s run from 12 s: at 23 s (11 s in) it answers in time.
      await clock.tick(11_000)
      await m.marketplace.settled(created.rateTable.uuid)
      const after = await rows()
      expect(after['first-13s']).toMatchObject({ status: 'timeout', reason: 'no reply within 12000 ms' })
      expect((after['second-11s']?.sentAt.getTime() ?? 0) - started).toBe(12_000)
      expect(after['second-11s']).toMatchObject({ status: 'approved', latencyMs: 11_000 })
    } finally {
      await m.close()
    }
  })

  it('first look closes as soon as every first-look partner has answered', async () => {
    const { m, created, started, rows } = await run([
      { id: 'first-1s', tier: 'first', latencyMs: 1_000, status: 'rejected' },
      { id: 'first-2s', tier: 'first', latencyMs: 2_000, status: 'rejected' },
      { id: 'second-1s', tier: 'second', latencyMs: 1_000, status: 'approved' },
    ])
    try {
      await Promise.all([m.whenReceived('first-1s'), m.whenReceived('first-2s')])
      await clock.tick(1_000)
      await clock.tick(1_000)
      await m.whenReceived('second-1s')
      await clock.tick(1_000)
      await m.marketplace.settled(created.rateTable.uuid)
      const after = await rows()
      expect((after['second-1s']?.sentAt.getTime() ?? 0) - started).toBe(2_000)
      expect(after['second-1s']?.status).toBe('approved')
    } finally {
      await m.close()
    }
  })

  it('the first-look deadline is configurable; a second-look partner past its own window times out at it', async () => {
    const { m, created, started, rows } = await run(
      [
        { id: 'first-8s', tier: 'first', latencyMs: 8_000, status: 'approved' },
        { id: 'second-late', tier: 'second', latencyMs: 20_000, status: 'approved' },
      ],
      { firstLookDeadlineMs: 5_000 },
    )
    try {
      await m.whenReceived('first-8s')
      await clock.tick(5_000)
      await m.whenReceived('second-late')
      await clock.tick(12_000)
      await m.marketplace.settled(created.rateTable.uuid)
      const after = await rows()
      expect(after['first-8s']).toMatchObject({ status: 'timeout', reason: 'no reply within 5000 ms' })
      expect((after['second-late']?.sentAt.getTime() ?? 0) - started).toBe(5_000)
      expect(after['second-late']).toMatchObject({ status: 'timeout', latencyMs: 12_000 })
    } finally {
      await m.close()
    }
  })

  it('the rate table stays honest between tiers: a partner is pending until the search is final', async () => {
    const { m, created } = await run([
      { id: 'first-r', tier: 'first', latencyMs: 1_000, status: 'rejected' },
      { id: 'second-a', tier: 'second', latencyMs: 1_000, status: 'approved' },
    ])
    try {
      const pendingIds = async () => {
        const table = await (await m.poll(created.rateTable.uuid, created.accessToken)).json()
        return table.pendingResponses.map((p: { partner: { uuid: string } }) => p.partner.uuid)
      }
      expect(await pendingIds()).toEqual(['first-r'])
      await m.whenReceived('first-r')
      await clock.tick(1_000)
      await m.whenReceived('second-a')
      // The poll cache holds a snapshot for a second: step past it.
      await clock.tick(500)
      expect(await pendingIds()).toEqual(['second-a'])
      await clock.tick(500)
      await m.marketplace.settled(created.rateTable.uuid)
      await clock.tick(1_000)
      expect(await pendingIds()).toEqual([])
    } finally {
      await m.close()
    }
  })
})
