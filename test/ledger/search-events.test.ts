/**
 * The placements part of the ledger (docs/placements.md), on both ledgers: an insurance search's events through
 * the write batch's search-event queue (one flush or several, repeats changing nothing) and the report's
 * insurance columns, read for the requested range only.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Ledger } from '../../src/ledger/index.ts'
import { SEARCH_EVENTS_FLUSH_MS } from '../../src/ledger/search-event-queue.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { LEDGER_DRIVERS } from './support/ledger-drivers.ts'

// Real databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const DAY = '2026-03-02'
const at = (time: string) => new Date(`${DAY}T${time}Z`)
const range = { from: new Date(`${DAY}T00:00:00Z`), to: new Date('2026-03-03T00:00:00Z'), pays: new Map() }

describe.each(LEDGER_DRIVERS)('search events on $name', (driver) => {
  let ledger: Ledger
  beforeAll(async () => {
    ledger = await driver.open()
  })
  afterAll(async () => {
    await ledger.close()
  })

  it('counts each search, completion, shown offer and click once, in one flush or many', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()]
    // One flush: a created and completed, shown twice, clicked; b created alone; c completed at creation.
    await Promise.all([
      ledger.recordSearchEvents([
        { kind: 'created', searchUuid: a, placement: 'home-hero', at: at('10:00:00'), completed: false },
      ]),
      ledger.recordSearchEvents([{ kind: 'completed', searchUuid: a, at: at('10:00:05') }]),
      ledger.recordSearchEvents([
        { kind: 'shown', searchUuid: a, offerIds: ['o1', 'o2'], at: at('10:00:06') },
      ]),
      ledger.recordSearchEvents([
        { kind: 'shown', searchUuid: a, offerIds: ['o2', 'o3'], at: at('10:00:07') },
      ]),
      ledger.recordSearchEvents([{ kind: 'clicked', searchUuid: a, offerId: 'o2', at: at('10:00:08') }]),
      ledger.recordSearchEvents([
        { kind: 'created', searchUuid: b, placement: 'home-hero', at: at('11:00:00'), completed: false },
        { kind: 'created', searchUuid: c, placement: null, at: at('12:00:00'), completed: true },
      ]),
    ])
    // Later flushes: repeats of everything, a second completion, b completed and measured.
    await ledger.recordSearchEvents([
      { kind: 'created', searchUuid: a, placement: 'other', at: at('13:00:00'), completed: true },
      { kind: 'completed', searchUuid: a, at: at('13:00:00') },
      { kind: 'shown', searchUuid: a, offerIds: ['o1', 'o3'], at: at('13:00:00') },
      { kind: 'clicked', searchUuid: a, offerId: 'o2', at: at('13:00:00') },
      { kind: 'completed', searchUuid: b, at: at('13:00:01') },
      { kind: 'clicked', searchUuid: b, offerId: 'x', at: at('13:00:02') },
    ])
    await ledger.recordSearchEvents([{ kind: 'completed', searchUuid: b, at: at('14:00:00') }])

    const report = await ledger.placementsReport(range)
    const zero = { secondLookLeads: 0, secondLookOffersShown: 0, secondLookClicks: 0, earnings: 0 }
    expect(report.rows).toEqual([
      {
        date: DAY,
        placement: 'home-hero',
        searches: 2,
        searchesCompleted: 2,
        offersShown: 3,
        clicks: 2,
        ...zero,
      },
      { date: DAY, placement: null, searches: 1, searchesCompleted: 1, offersShown: 0, clicks: 0, ...zero },
    ])
    expect(
      await ledger.placementsReport({ ...range, from: range.to, to: new Date('2026-03-04T00:00:00Z') }),
    ).toEqual({ from: '2026-03-03T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z', rows: [] })
  })

  it('waits a second for its own flush, never rides along with a lead’s write, and is written by close()', async () => {
    const clock = createFakeClock()
    const delayed = await driver.open({ timers: clock.timers })
    const created = (uuid: string) =>
      ({
        kind: 'created',
        searchUuid: uuid,
        placement: 'footer',
        at: at('09:00:00'),
        completed: false,
      }) as const
    const searches = async () =>
      (await delayed.placementsReport(range)).rows.reduce((n, row) => n + row.searches, 0)
    try {
      let written = false
      const first = delayed.recordSearchEvents([created(randomUUID())]).then(() => {
        written = true
      })
      // Other work reaches the database meanwhile; the event is not in it, nor is its promise settled.
      expect(await searches()).toBe(0)
      await clock.tick(SEARCH_EVENTS_FLUSH_MS - 1)
      expect(written).toBe(false)
      await clock.tick(1)
      await first
      expect(await searches()).toBe(1)

      // A write that cannot wait (a lead's reply) goes alone: the waiting event keeps to its own timer.
      let secondWritten = false
      const second = delayed.recordSearchEvents([created(randomUUID())]).then(() => {
        secondWritten = true
      })
      // (A reply to a request no lead holds: its statement runs and updates nothing.)
      await delayed.recordReply({
        requestId: randomUUID(),
        leadId: randomUUID(),
        partnerId: 'p',
        status: 'rejected',
        latencyMs: 1,
        repliedAt: at('09:00:01'),
        offers: [],
      })
      expect(secondWritten).toBe(false)
      expect(await searches()).toBe(1)
      await clock.tick(SEARCH_EVENTS_FLUSH_MS)
      await second
      expect(await searches()).toBe(2)

      // Still waiting when the ledger closes: the close writes it (its promise settles only on commit).
      let third = 'waiting'
      const closing = delayed.recordSearchEvents([created(randomUUID())]).then(
        () => {
          third = 'written'
        },
        () => {
          third = 'failed'
        },
      )
      await delayed.close()
      await closing
      expect(third).toBe('written')
    } finally {
      await delayed.close().catch(() => {})
    }
  })

  it('reads only the requested range: the offers of searches created outside it are never read', async () => {
    const clock = createFakeClock()
    const own = await driver.open({ timers: clock.timers })
    try {
      const inside = randomUUID()
      const outside = Array.from({ length: 200 }, () => randomUUID())
      const offers = (n: number) => Array.from({ length: n }, (_, i) => `offer-${i}`)
      const recorded = own.recordSearchEvents([
        { kind: 'created', searchUuid: inside, placement: 'home-hero', at: at('10:00:00'), completed: true },
        { kind: 'shown', searchUuid: inside, offerIds: offers(3), at: at('10:00:01') },
        ...outside.flatMap((searchUuid) => [
          {
            kind: 'created' as const,
            searchUuid,
            placement: 'home-hero',
            at: new Date('2026-02-20T10:00:00Z'),
            completed: true,
          },
          { kind: 'shown' as const, searchUuid, offerIds: offers(40), at: new Date('2026-02-20T10:00:01Z') },
        ]),
      ])
      await clock.tick(SEARCH_EVENTS_FLUSH_MS)
      await recorded

      // The statements the report runs, as the driver is given them.
      const session = (own.db as unknown as { session: { logger: unknown } }).session
      const statements: string[] = []
      const logger = session.logger
      session.logger = { logQuery: (query: string) => void statements.push(query) }
      const report = await own.placementsReport(range).finally(() => {
        session.logger = logger
      })
      expect(report.rows).toEqual([
        expect.objectContaining({ date: DAY, placement: 'home-hero', searches: 1, offersShown: 3 }),
      ])
      // The offers are read through their searches' range: the subquery that reads them is bounded by it.
      const reading = statements.filter((q) => q.includes('from "placement_search_offers"'))
      expect(reading).toHaveLength(1)
      const subquery = /from "placement_search_offers"(.*?)\) "measured"/s.exec(reading[0] ?? '')?.[1]
      expect(subquery).toMatch(
        /"placement_searches"\."created_at" >= \$\d+ and "placement_searches"\."created_at" < \$\d+/,
      )
    } finally {
      await own.close()
    }
  })
})
