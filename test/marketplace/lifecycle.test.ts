import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import type { Ledger, SearchSnapshot } from '../../src/ledger/index.ts'
import { offers, partnerRequests } from '../../src/ledger/schema.ts'
import { buildRateTable, ORPHAN_GRACE_MS } from '../../src/marketplace/rate-table/build-rate-table.ts'
import { LEDGER_DRIVERS, openLedgerAround } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import { watch } from '../support/promises.ts'
import {
  type FakeTimeMarket,
  type ScriptedPartner,
  startFakeTimeMarket,
} from './support/fake-time-harness.ts'
import { makeLead, startHarness } from './support/harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

describe.each(LEDGER_DRIVERS)('lead lifecycle on $name', (driver) => {
  let ledger: Ledger
  openLedgerAround(driver, (opened) => {
    ledger = opened
  })

  it('close() aborts partner calls in flight and still writes the lead down, without waiting for any window', async () => {
    const clock = createFakeClock()
    const h = await startHarness({
      ledger,
      partners: [{ id: 'hanging', name: 'Hanging', tier: 'first', behavior: 'approve', latencyMs: 5_000 }],
      config: { deadlineMs: 12_000 },
      clock,
    })
    const res = await h.submit(makeLead())
    const { rateTable } = (await res.json()) as { rateTable: { uuid: string; leadUuid: string } }
    await h.partners.whenReceived('hanging')
    // The clock never moves: close() resolving at all shows it waits on no window and no partner.
    await h.close()
    const search = await ledger.getSearch(rateTable.uuid)
    expect(search?.lead.status).toBe('complete')
    const [row] = await ledger.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.leadId, rateTable.leadUuid))
    expect(row).toMatchObject({
      status: 'error',
      reason: 'the marketplace shut down before the reply',
      latencyMs: 0,
    })
  })
})

describe('a lead orphaned by a restart', () => {
  it('is shown complete once its deadline is well past, so the widget stops polling', () => {
    const createdAt = new Date('2026-03-02T10:00:00Z')
    const snapshot: SearchSnapshot = {
      lead: {
        id: '00000000-0000-4000-8000-000000000001',
        searchUuid: '00000000-0000-4000-8000-000000000002',
        state: 'CA',
        zip: '94105',
        bodyHash: null,
        status: 'pending',
        createdAt,
        deadlineAt: new Date(createdAt.getTime() + 12_000),
        completedAt: null,
        failureReason: null,
      },
      pending: [{ partnerId: 'gone', tier: 'first' }],
      requests: [{ partnerId: 'gone', tier: 'first', status: 'pending', sentAt: createdAt, offerCount: 0 }],
      displayed: [],
    }
    const at = (ms: number) =>
      buildRateTable(snapshot, new Map(), {
        links: () => ({ url: '', unmonetizedUrl: '', impressionUrl: '' }),
        now: createdAt.getTime() + ms,
        windowMs: 12_000,
        firstLookDeadlineMs: 12_000,
      })
    expect(at(12_000).pendingResponses).toHaveLength(1)
    expect(at(12_000).secondLook).toMatchObject({ partnersAsked: 1, partnersAnswered: 0 })
    expect(at(12_000 + ORPHAN_GRACE_MS + 1).pendingResponses).toEqual([])
    // Over: nobody is awaited any more, and the progress says so.
    expect(at(12_000 + ORPHAN_GRACE_MS + 1).secondLook).toEqual({
      partnersAsked: 1,
      partnersAnswered: 1,
      answerBy: snapshot.lead.deadlineAt.toISOString(),
    })
  })
})

describe.each(LEDGER_DRIVERS)('shutdown drain and polling on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  beforeAll(async () => {
    clock = createFakeClock()
    // The ledger keeps real timers: its timeouts guard real IO, which the fake clock must not outrun.
    ledger = await driver.open()
  })
  afterAll(async () => {
    await ledger.close()
  })

  const PARTNERS: ScriptedPartner[] = [
    { id: 'quick', tier: 'first', latencyMs: 2_000, status: 'approved', rate: 9 },
    { id: 'slow', tier: 'first', latencyMs: 9_000, status: 'approved', rate: 15 },
  ]

  async function submitMany(m: FakeTimeMarket, count: number) {
    const tables = []
    for (let i = 0; i < count; i++) {
      const res = await m.submit(makeLead())
      expect(res.status).toBe(201)
      tables.push(createdSearchSchema.parse(await res.json()))
    }
    await Promise.all(PARTNERS.map((p) => m.whenReceived(p.id, count)))
    return tables
  }

  /**
   * Moves the clock to the quick partners' replies (2 s, from when the drain began), then to `endMs`: the
   * drain must end there, not 1 ms before.
   */
  async function expectDrainToEndAt(
    m: FakeTimeMarket,
    drained: ReturnType<typeof watch>,
    leads: number,
    endMs: number,
  ) {
    await clock.tick(2_000)
    await m.whenReplies(leads)
    await clock.tick(endMs - 2_000 - 1)
    expect(drained.settled()).toBe(false)
    await clock.tick(1)
    await drained.promise
  }

  async function bidsRecorded(leadIds: string[]) {
    const rows = await ledger.db.select().from(offers).where(inArray(offers.leadId, leadIds))
    return rows.length
  }

  /** Runs `test` on a fake-time market over this ledger and clock (PARTNERS unless told), closed after. */
  async function onMarket(
    options: Partial<Parameters<typeof startFakeTimeMarket>[0]>,
    test: (m: FakeTimeMarket) => Promise<void>,
  ) {
    const m = await startFakeTimeMarket({ ledger, clock, partners: PARTNERS, ...options })
    try {
      await test(m)
    } finally {
      await m.close()
    }
  }

  it('on shutdown, 20 leads in flight keep their partner calls until their windows close, and every bid is recorded', async () => {
    await onMarket({}, async (m) => {
      const tables = await submitMany(m, 20)
      const drained = watch(m.marketplace.drain())
      // New leads go to another replica meanwhile.
      const refused = await m.submit(makeLead())
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('1')
      // The slow partners answer at 9 s, within their window: the drain waits for them.
      await expectDrainToEndAt(m, drained, 20, 9_000)
      const expected = tables.length * PARTNERS.length
      const recorded = await bidsRecorded(tables.map((t) => t.rateTable.leadUuid))
      console.info(
        `[figure] ${driver.name}: bids lost on SIGTERM (drain): ${expected - recorded} of ${expected}`,
      )
      expect(recorded).toBe(expected)
      for (const { rateTable } of tables) {
        expect((await ledger.getSearch(rateTable.uuid))?.lead.status).toBe('complete')
      }
    })
  })

  it('the drain is bounded: past its timeout the calls still out are cut, recorded as such, and the rest kept', async () => {
    await onMarket({ config: { drainTimeoutMs: 5_000 } }, async (m) => {
      const tables = await submitMany(m, 3)
      const drained = watch(m.marketplace.drain())
      // The drain's 5 s run from when it began; the slow partners (9 s) are still out then.
      await expectDrainToEndAt(m, drained, 3, 5_000)
      const ids = tables.map((t) => t.rateTable.leadUuid).sort()
      const rows = await ledger.db.select().from(partnerRequests).where(inArray(partnerRequests.leadId, ids))
      // One row per lead and partner, in lead order, so a missing or extra row fails as clearly as a wrong one.
      const outcome = (partnerId: string) =>
        rows
          .filter((r) => r.partnerId === partnerId)
          .map((r) => ({ leadId: r.leadId, status: r.status, reason: r.reason }))
          .sort((x, y) => (x.leadId < y.leadId ? -1 : 1))
      expect(outcome('quick')).toEqual(
        ids.map((leadId) => expect.objectContaining({ leadId, status: 'approved' })),
      )
      expect(outcome('slow')).toEqual(
        ids.map((leadId) => ({
          leadId,
          status: 'error',
          reason: 'the marketplace shut down before the reply',
        })),
      )
      expect(await bidsRecorded(ids)).toBe(3)
    })
  })

  it('50 pollers of one search cost at most one ledger read per second', async () => {
    await onMarket(
      { partners: [{ id: 'hold', tier: 'first', latencyMs: 11_000, status: 'approved' }] },
      async (m) => {
        const reads = vi.spyOn(ledger, 'getSearch')
        try {
          const { rateTable, accessToken } = createdSearchSchema.parse(
            await (await m.submit(makeLead())).json(),
          )
          await m.whenReceived('hold')
          reads.mockClear()
          const seconds = 10
          // 50 pollers, each polling every 100 ms of fake time for 10 s: 5 000 polls.
          for (let step = 0; step < seconds * 10; step++) {
            const polls = Array.from({ length: 50 }, () => m.poll(rateTable.uuid, accessToken))
            for (const res of await Promise.all(polls)) expect(res.status).toBe(200)
            await clock.tick(100)
          }
          const perSecond = reads.mock.calls.length / seconds
          console.info(
            `[figure] ${driver.name}: ledger reads per second of 50 pollers: ${perSecond} (${reads.mock.calls.length} reads for ${seconds * 10 * 50} polls)`,
          )
          expect(perSecond).toBeLessThanOrEqual(1)
        } finally {
          reads.mockRestore()
        }
      },
    )
  })
})
