/**
 * Placements through the server a publisher runs (docs/placements.md): `startServer` hands the BFF's search
 * records to the second look's ledger, so a search with a placement, its measure and a lead with the same
 * placement reach the operator's report. Sandbox mode, PGlite in memory. The measure names offers the
 * sandbox's rate table really holds (only served offers count), and one it never served, which is dropped.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { rateTableSchema } from '../../src/contract/rate-table.ts'
import type { PlacementsReport } from '../../src/ledger/index.ts'
import { sampleLeads } from '../../src/partner-kit/index.ts'
import { loadConfig } from '../../src/server/config.ts'
import { startServer } from '../../src/server/start-server.ts'
import { UA } from '../bff/support/harness.ts'
import { http } from '../support/server-requests.ts'

const REPORTS = 'operator-reports-token-0123456789'

it('a search, its measure and a lead from one placement reach the report of a started server', async () => {
  const running = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      REPORTS_TOKEN: REPORTS,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'placements-')),
    }),
    { secondLook: { inMemoryLedger: true } },
  )
  try {
    const headers = { 'content-type': 'application/json', 'x-offer-widget': 'test', 'user-agent': UA }
    const created = await http(`${running.url}/api/offer-searches`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ placement: 'home-hero' }),
    })
    expect(created.status).toBe(201)
    const { accessToken, rateTable } = createdSearchSchema.parse(JSON.parse(created.text))
    const search = `${running.url}/api/offer-searches/${rateTable.uuid}`
    const withToken = { ...headers, 'x-offer-access-token': accessToken }
    // Polled as the widget does until the sandbox's partners have answered with two offers.
    const offers = await vi.waitFor(
      async () => {
        const polled = await http(search, { headers: withToken })
        expect(polled.status).toBe(200)
        const table = rateTableSchema.parse(JSON.parse(polled.text))
        expect(table.offers.length).toBeGreaterThanOrEqual(2)
        return table.offers
      },
      { timeout: 10_000, interval: 100 },
    )
    const [first, second] = offers.map((offer) => offer.uuid)
    const measure = (body: unknown) =>
      http(`${search}/measure`, { method: 'POST', headers: withToken, body: JSON.stringify(body) })
    expect((await measure({ shown: [first, second, 'never-served'] })).status).toBe(204)
    expect((await measure({ clicked: second })).status).toBe(204)
    const lead = sampleLeads().find((s) => s.id === 'complete')?.lead
    const applied = await http(`${running.url}/api/second-look`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...lead, placement: 'home-hero' }),
    })
    expect(applied.status).toBe(201)

    // A range around now, so a run across midnight still finds its row.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const [from, to] = [day(-1), day(1)]
    const rows = await vi.waitFor(
      async () => {
        const res = await http(`${running.url}/api/reports/placements?from=${from}&to=${to}`, {
          headers: { authorization: `Bearer ${REPORTS}` },
        })
        expect(res.status).toBe(200)
        const report = JSON.parse(res.text) as PlacementsReport
        expect(report.rows[0]).toMatchObject({ clicks: 1 })
        return report.rows
      },
      { timeout: 10_000, interval: 50 },
    )
    expect(rows).toEqual([
      expect.objectContaining({
        date: expect.any(String),
        placement: 'home-hero',
        searches: 1,
        offersShown: 2,
        clicks: 1,
        secondLookLeads: 1,
      }),
    ])
  } finally {
    await running.close()
  }
}, 30_000)
