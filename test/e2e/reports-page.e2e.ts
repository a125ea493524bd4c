/**
 * @module The partner reports page in Chromium against the real server (sandbox mode, its simulated
 * partners): a one-day report draws one bar per figure with that day on the axis and in the From/To boxes, a
 * 90-day report draws 90, the win/loss says each offer's outcome, the breakdowns count the leads, a range
 * without leads says so in every table, and the page never scrolls sideways at 360 or 1280 px (the wide
 * tables scroll inside their box).
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RunningServer } from '../../src/server/start-server.ts'
import { secondLookLead } from '../support/second-look-lead.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { startTestServer } from './support/server.ts'

const TOKEN = 'e2e-operator-reports-token-0123456789'
const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

describe('the partner reports page in Chromium', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]
  const failed: string[] = []
  beforeAll(async () => {
    server = await startTestServer({}, { REPORTS_TOKEN: TOKEN })
    // Two leads today: sent to every simulated partner at once (written ahead of the fan-out).
    const searches: Array<{ uuid: string; token: string }> = []
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}/api/second-look`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-offer-widget': 'e2e',
          'user-agent': 'Mozilla/5.0 e2e',
        },
        // The first from a named spot (docs/placements.md), the second from none.
        body: JSON.stringify({ ...secondLookLead(), ...(i === 0 && { placement: 'loans-sidebar' }) }),
      })
      expect(res.status).toBe(201)
      const created = (await res.json()) as { accessToken: string; rateTable: { uuid: string } }
      searches.push({ uuid: created.rateTable.uuid, token: created.accessToken })
    }
    // A report is read once its leads' auctions have settled (the simulated Sim Tardy Lender times out at 12 s),
    // so each offer has its outcome.
    await vi.waitFor(
      async () => {
        for (const { uuid, token } of searches) {
          const poll = await fetch(`${server.url}/api/second-look/${uuid}`, {
            headers: { 'X-Offer-Access-Token': token, 'x-offer-widget': 'e2e' },
          })
          expect(((await poll.json()) as { pendingResponses: unknown[] }).pendingResponses).toEqual([])
        }
      },
      { timeout: 20_000, interval: 500 },
    )
    browser = await launchBrowser()
    page = await browser.context.newPage()
    errors = collectErrors(page)
    // Every request of the page must succeed, but the browser's own favicon probe (the page names none).
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
        failed.push(`${response.status()} ${response.url()}`)
    })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** Fills the form and waits for the report. */
  async function show(from: string, to: string) {
    await page.fill('#from', from)
    await page.fill('#to', to)
    await page.click('button[type=submit]')
    await page.waitForFunction(
      (expected) => document.querySelector('#range')?.textContent?.startsWith(expected),
      `${from} to ${to}`,
    )
  }
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

  it('one day: a bar per figure, the day on the axis and in the form, no sideways scroll at 1280 and 360', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${server.url}/reports`)
    // The range in effect is in the boxes before any report: the last 30 UTC days.
    const today = isoDay(Date.now())
    expect(await page.inputValue('#to')).toBe(today)
    expect(await page.inputValue('#from')).toBe(isoDay(Date.now() - 29 * DAY_MS))
    await page.fill('#token', TOKEN)
    await page.press('#token', 'Tab')
    await page.waitForSelector('#partner option[value="sim-fast"]', { state: 'attached' })
    await page.selectOption('#partner', 'sim-fast')
    await show(today, today)
    expect(await page.inputValue('#from')).toBe(today)
    expect(await page.inputValue('#to')).toBe(today)
    const charts = await page.$$eval('#chart svg', (svgs) =>
      svgs.map((svg) => ({
        bars: svg.querySelectorAll('rect').length,
        labels: [...svg.querySelectorAll('text')].map((t) => t.textContent),
        width: svg.getBoundingClientRect().width,
      })),
    )
    expect(charts).toHaveLength(4)
    for (const chart of charts) {
      expect(chart.bars).toBe(1)
      expect(chart.labels).toEqual(expect.arrayContaining([today, 'UTC day', 'count']))
      expect(chart.width).toBeGreaterThan(250)
    }
    // The requests chart shows the two leads as a bar of 2 with its value.
    expect(charts[0]?.labels).toContain('2')
    expect(await page.textContent('#figures')).toContain('Conversion amount (USD)$0.00')
    expect(await page.textContent('#figures')).toContain('Spend (USD, per click)$0.00')
    // Each of Sim Quick Loans' offers says why it won or lost (Sim Steady Lender bids more for the same type).
    const outcomes = await page.$$eval('#leads td.outcome', (cells) => cells.map((c) => c.textContent))
    expect(outcomes.length).toBeGreaterThan(0)
    for (const outcome of outcomes)
      expect(['won', 'outbid', 'lost_to_own_offer', 'ruled_out_by_phase', 'timed_out']).toContain(outcome)
    // The two leads, by state: both from California.
    expect(
      await page.$$eval('#by-state tbody tr', (rows) =>
        rows.map((r) => (r as HTMLTableRowElement).cells[0]?.textContent),
      ),
    ).toEqual(['CA'])
    expect(await page.textContent('#by-state tbody')).toMatch(/^CA2/)
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-1-day-1280')
    await page.setViewportSize({ width: 360, height: 800 })
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-1-day-360')
  })

  it('placements (operator): a row per placement of the day, (none) for the lead without one, at 1280 and 360', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    const today = isoDay(Date.now())
    await page.fill('#from', today)
    await page.fill('#to', today)
    await page.click('#show-placements')
    await page.waitForSelector('#placements-report:not([hidden])')
    const rows = await page.$$eval('#placements tbody tr', (trs) =>
      trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent)),
    )
    // Day, placement, 4 insurance columns (no insurance search here), second-look leads, shown, clicks, earnings.
    expect(rows.map((r) => [r[1], r[2], r[6]])).toEqual([
      ['loans-sidebar', '0', '1'],
      ['(none)', '0', '1'],
    ])
    // Sim Fast is not sent placements: its breakdown by placement is one row that says so.
    expect(
      await page.$$eval('#by-placement tbody tr', (trs) =>
        trs.map((tr) => (tr as HTMLTableRowElement).cells[0]?.textContent),
      ),
    ).toEqual(['not_shared'])
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-placements-1280')
    await page.setViewportSize({ width: 360, height: 800 })
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-placements-360')
  })

  it('90 days: 90 bars a chart, the first and last day on the axis, no sideways scroll', async () => {
    const today = isoDay(Date.now())
    const from = isoDay(Date.now() - 89 * DAY_MS)
    await page.setViewportSize({ width: 1280, height: 900 })
    await show(from, today)
    const bars = await page.$$eval('#chart svg', (svgs) =>
      svgs.map((svg) => svg.querySelectorAll('rect').length),
    )
    expect(bars).toEqual([90, 90, 90, 90])
    const labels = await page.$eval('#chart svg', (svg) =>
      [...svg.querySelectorAll('text')].map((t) => t.textContent),
    )
    expect(labels).toEqual(expect.arrayContaining([from, today]))
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-90-days-1280')
    await page.setViewportSize({ width: 360, height: 800 })
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-90-days-360')
  })

  it('a range without leads: every table says so, the header kept, at 1280 and 360', async () => {
    const day = isoDay(Date.now() - 200 * DAY_MS)
    await page.setViewportSize({ width: 1280, height: 900 })
    await show(day, day)
    const tables = await page.$$eval('#report table', (all) =>
      all.map((t) => ({
        id: t.id,
        header: t.querySelectorAll('thead th').length,
        empty: [...t.querySelectorAll('tbody td')].map((td) => td.textContent),
      })),
    )
    expect(tables.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        'spend',
        'by-state',
        'by-creditBand',
        'by-loanPurpose',
        'by-amountBand',
        'leads',
      ]),
    )
    for (const table of tables) {
      expect(table.header, table.id).toBeGreaterThan(1)
      expect(table.empty, table.id).toEqual([expect.stringMatching(/^No .* in this range\.$/)])
    }
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-empty-1280')
    await page.setViewportSize({ width: 360, height: 800 })
    expect(await overflow()).toBeLessThanOrEqual(0)
    await screenshot(page, 'reports-empty-360')
    expect(failed).toEqual([])
    expect(errors.filter((e) => !/^Failed to load resource/.test(e))).toEqual([])
  })
})
