// @vitest-environment jsdom
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { reportPageHtml, reportPageScript } from '../../../src/marketplace/reports/report-page.ts'
import { announceSkip } from '../../support/skip-notice.ts'
import { partnerReport } from '../support/partner-report.ts'

/** What `npm run build` makes of the page's script (config/vite.reports.config.ts): what a built server serves. */
const BUILT = join(import.meta.dirname, '../../../dist/reports/app.js')
const built = existsSync(BUILT)
if (!built) {
  // The built page's run needs `npm run build`; a fresh clone's `npm test` runs before any build.
  console.info(`report-page.test: skipping the built page's run: ${BUILT} is missing (run npm run build)`)
}
if (!built) {
  announceSkip(
    'the reports page test of the built script',
    'dist/reports/app.js is missing (run npm run build; .ci/run runs these tests before it builds)',
  )
}

const REPORT = partnerReport({
  requests: 4,
  spend: 9.5,
  conversionAmount: 30,
  clickThroughRate: 0.5,
  averageBidByProductType: [{ productType: 'personal_loan', offers: 3, averageBid: 9.5 }],
  replies: [
    { status: 'timeout', count: 1, averageLatencyMs: 12000, p95LatencyMs: 12000, maxLatencyMs: 12000 },
  ],
  causes: [
    {
      status: 'timeout',
      reason: 'no reply within 12000 ms',
      httpStatus: null,
      count: 1,
      averageLatencyMs: 12000,
    },
  ],
  daily: [
    {
      date: '2026-03-01',
      requests: 2,
      responsesWithOffers: 1,
      offersDisplayed: 1,
      uniqueClicks: 1,
      conversions: 1,
      spend: 9.5,
    },
    {
      date: '2026-03-02',
      requests: 2,
      responsesWithOffers: 1,
      offersDisplayed: 1,
      uniqueClicks: 0,
      conversions: 0,
      spend: 0,
    },
  ],
  leads: [
    {
      leadId: 'l-1',
      partnerLeadId: 'P-1',
      sentAt: '2026-03-01T10:00:00.000Z',
      status: 'rejected',
      reason: '<img src=x onerror=alert(1)> thin file',
      httpStatus: 200,
      latencyMs: 40,
      converted: false,
      outcome: null,
      offersDropped: 0,
      offers: [],
    },
  ],
})

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The page's module, from its TypeScript source or as built. */
const MODULES = {
  source: () => import('../../../src/marketplace/reports/report-page-app.ts'),
  built: () => import(/* @vite-ignore */ pathToFileURL(BUILT).href),
}

describe.each([
  ['source', true],
  ['built', built],
] as const)('/reports page script (%s)', (kind, present) => {
  it.runIf(present)(
    'draws the figures, a chart with a plain-word legend, the causes with latency, and partner text as text',
    async () => {
      const html = reportPageHtml('')
      document.body.innerHTML = html.slice(html.indexOf('<main>'), html.indexOf('</body>'))
      const fetch = vi.fn(async (url: string) =>
        url.endsWith('/api/reports/partners')
          ? Response.json({ partners: [{ id: 'lender', name: 'Lender', tier: 'second', enabled: true }] })
          : Response.json(REPORT),
      )
      vi.stubGlobal('fetch', fetch)
      // The module the page loads (`/reports/app.js`); it wires the page when imported.
      await MODULES[kind]()
      const $ = (id: string) => document.getElementById(id) as HTMLElement
      const rowsOf = (id: string) =>
        [...(($(id) as HTMLTableElement).tBodies[0]?.rows ?? [])].map((row) =>
          [...row.cells].map((c) => c.textContent),
        )
      ;($('token') as HTMLInputElement).value = 'lender-token'
      $('token').dispatchEvent(new Event('change'))
      await vi.waitFor(() => expect($('status').textContent).toBe('Your report: Lender.'))
      ;($('query') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true }))
      await vi.waitFor(() => expect(($('report') as HTMLElement).hidden).toBe(false))

      const captions = [...$('chart').querySelectorAll('figcaption')].map((t) => t.firstChild?.textContent)
      expect(captions).toEqual(['Requests', 'Offers displayed', 'Unique clicks', 'Conversions'])
      // One bar per UTC day of the range, and the range on the axis and in the form.
      for (const svg of $('chart').querySelectorAll('svg')) {
        expect(svg.querySelectorAll('rect')).toHaveLength(2)
        const labels = [...svg.querySelectorAll('text')].map((t) => t.textContent)
        expect(labels).toEqual(expect.arrayContaining(['2026-03-01', '2026-03-02', 'UTC day', 'count']))
      }
      expect(($('from') as HTMLInputElement).value).toBe('2026-03-01')
      expect(($('to') as HTMLInputElement).value).toBe('2026-03-02')
      expect($('range').textContent).toBe('2026-03-01 to 2026-03-02 (2 days)')
      const figures = $('figures').textContent ?? ''
      for (const text of [
        'Win rate66.7 %',
        'Click-through rate50.0 %',
        'Conversions1',
        'Offers displayed2',
        'Conversion amount (USD)$30.00',
        'Spend (USD, per click)$9.50',
      ])
        expect(figures).toContain(text)
      expect(rowsOf('spend')).toEqual([
        ['2026-03-01', '$9.50', '1', '1'],
        ['2026-03-02', '$0.00', '0', '0'],
      ])
      // Tables with no rows say so in their own words; the header stays.
      expect(rowsOf('by-state')).toEqual([['No leads in this range.']])
      expect(rowsOf('bids')).toEqual([['personal_loan', '3', '$9.50']])
      expect($('by-state').querySelector('td')?.colSpan).toBe(7)
      expect($('causes').textContent).toContain('no reply within 12000 ms')
      expect($('replies').textContent).toContain('12000')
      expect($('leads').textContent).toContain('<img src=x onerror=alert(1)> thin file')
      expect($('leads').querySelector('img')).toBeNull()
      // The boxes held the default range (the last 30 UTC days) before the first report, so it is asked for.
      expect(fetch).toHaveBeenLastCalledWith(
        expect.stringMatching(/\/api\/reports\/partners\/lender\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d$/),
        {
          headers: { Authorization: 'Bearer lender-token', Accept: 'application/json' },
        },
      )
    },
  )
})

describe('/reports/app.js from the sources', () => {
  // The first request loads TypeScript (a second or more on a busy machine).
  it('is the TypeScript transpiled: no type left, no import, the same code as written', {
    timeout: 30_000,
  }, async () => {
    const script = await reportPageScript()
    expect(script).toContain("createElementNS(SVG, 'svg')")
    expect(script).not.toMatch(/^\s*import\b/m)
    expect(script).not.toMatch(/(:|as) PartnerReport\b/)
    // The second request is the first one's answer.
    expect(await reportPageScript()).toBe(script)
  })
})
