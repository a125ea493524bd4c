/**
 * The placements part of the ledger (docs/placements.md), on both ledgers: an insurance search's events through
 * the write batch (one flush or several, repeats changing nothing) and the report's insurance columns.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Ledger } from '../../src/ledger/index.ts'
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
})
