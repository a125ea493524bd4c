// @vitest-environment jsdom
/**
 * The placements table of the `/reports` page (docs/placements.md), drawn by the page's script from its
 * TypeScript source: the done-when rows exactly as the report route answers them, "(none)" for no placement,
 * and an empty range said in words.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { reportPageHtml } from '../../../src/marketplace/reports/report-page.ts'
import { DAY1, DAY2, EXPECTED } from '../support/placements-expected.ts'

afterEach(() => {
  vi.unstubAllGlobals()
})

it('draws the placements per day exactly, then an empty range in words', async () => {
  const html = reportPageHtml('')
  document.body.innerHTML = html.slice(html.indexOf('<main>'), html.indexOf('</body>'))
  const report = { from: `${DAY1}T00:00:00.000Z`, to: '2026-03-04T00:00:00.000Z', rows: EXPECTED }
  let answer: unknown = report
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json(answer))
  vi.stubGlobal('fetch', fetch)
  await import('../../../src/marketplace/reports/report-page-app.ts')
  const $ = (id: string) => document.getElementById(id) as HTMLElement
  const rows = () =>
    [...(($('placements') as HTMLTableElement).tBodies[0]?.rows ?? [])].map((r) =>
      [...r.cells].map((c) => c.textContent),
    )
  ;($('token') as HTMLInputElement).value = 'operator-token'
  ;($('from') as HTMLInputElement).value = DAY1
  ;($('to') as HTMLInputElement).value = DAY2
  expect($('placements-report').hidden).toBe(true)
  $('show-placements').click()
  await vi.waitFor(() => expect($('placements-report').hidden).toBe(false))
  // jsdom's page is at `/`: the path is the API's under it, with the range in the boxes.
  expect(fetch.mock.lastCall?.[0]).toMatch(new RegExp(`/api/reports/placements\\?from=${DAY1}&to=${DAY2}$`))
  expect(fetch.mock.lastCall?.[1]).toEqual({
    headers: { Authorization: 'Bearer operator-token', Accept: 'application/json' },
  })
  expect(rows()).toEqual([
    [DAY1, 'home-hero', '2', '1', '3', '2', '2', '2', '1', '$19.84'],
    [DAY1, 'quote-sidebar', '1', '1', '1', '0', '1', '1', '0', '$0.00'],
    [DAY1, '(none)', '1', '1', '0', '0', '1', '0', '1', '$9.00'],
    [DAY2, 'home-hero', '1', '0', '0', '1', '0', '0', '0', '$0.00'],
    [DAY2, '(none)', '0', '0', '0', '0', '1', '0', '0', '$0.00'],
  ])
  expect($('status').textContent).toBe(`Placements from ${DAY1} to ${DAY2} (UTC days, both included).`)

  answer = { ...report, rows: [] }
  $('show-placements').click()
  await vi.waitFor(() => expect(rows()).toEqual([['No searches or leads in this range.']]))
  expect($('placements').querySelector('td')?.colSpan).toBe(10)
})
