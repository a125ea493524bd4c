import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Ledger, partnerRequests, type SearchSnapshot } from '../../src/ledger/index.ts'
import { buildRateTable, ORPHAN_GRACE_MS } from '../../src/marketplace/rate-table/build-rate-table.ts'
import { LEDGER_DRIVERS } from '../ledger/ledger-drivers.ts'
import { makeLead, startHarness } from './harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

describe.each(LEDGER_DRIVERS)('lead lifecycle on $name', (driver) => {
  let ledger: Ledger
  beforeAll(async () => {
    ledger = await driver.open()
  }, 30_000)
  afterAll(async () => {
    await ledger.close()
  })

  it('the 12 s window covers both tiers: second look gets what first look left of the deadline', async () => {
    const h = await startHarness({
      ledger,
      partners: [
        { id: 'slow-first', name: 'Slow First', tier: 'first', behavior: 'reject', latencyMs: 150 },
        { id: 'late-second', name: 'Late Second', tier: 'second', behavior: 'approve', latencyMs: 2_000 },
      ],
      config: { deadlineMs: 300 },
    })
    try {
      const started = performance.now()
      const res = await h.submit(makeLead())
      const { rateTable } = (await res.json()) as { rateTable: { uuid: string; leadUuid: string } }
      await h.marketplace.settled(rateTable.uuid)
      expect(performance.now() - started).toBeLessThan(1_000)
      const rows = await ledger.db
        .select()
        .from(partnerRequests)
        .where(eq(partnerRequests.leadId, rateTable.leadUuid))
      const second = rows.find((r) => r.partnerId === 'late-second')
      expect(second?.status).toBe('timeout')
      expect(second?.latencyMs).toBeLessThan(200)
    } finally {
      await h.close()
    }
  })

  it('close() aborts partner calls in flight and still writes the lead down', async () => {
    const h = await startHarness({
      ledger,
      partners: [{ id: 'hanging', name: 'Hanging', tier: 'first', behavior: 'approve', latencyMs: 5_000 }],
      config: { deadlineMs: 12_000 },
    })
    const res = await h.submit(makeLead())
    const { rateTable } = (await res.json()) as { rateTable: { uuid: string; leadUuid: string } }
    const started = performance.now()
    await h.close()
    expect(performance.now() - started).toBeLessThan(1_000)
    const search = await ledger.getSearch(rateTable.uuid)
    expect(search?.lead.status).toBe('complete')
    const [row] = await ledger.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.leadId, rateTable.leadUuid))
    expect(row).toMatchObject({ status: 'error', reason: 'the marketplace shut down before the reply' })
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
      },
      pending: [{ partnerId: 'gone', tier: 'first' }],
      displayed: [],
    }
    const at = (ms: number) =>
      buildRateTable(snapshot, new Map(), {
        links: () => ({ url: '', unmonetizedUrl: '', impressionUrl: '' }),
        now: createdAt.getTime() + ms,
      })
    expect(at(12_000).pendingResponses).toHaveLength(1)
    expect(at(12_000 + ORPHAN_GRACE_MS + 1).pendingResponses).toEqual([])
  })
})
