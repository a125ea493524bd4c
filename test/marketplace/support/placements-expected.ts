/**
 * @module The placements report the done-when test seeds (test/marketplace/placements-report.test.ts), as
 * JSON rows and as CSV: shared with the reports page test, which draws the same rows.
 */
import type { PlacementReportRow } from '../../../src/ledger/index.ts'

export const DAY1 = '2026-03-02'
export const DAY2 = '2026-03-03'

/** The figures the report should give, row by row (zeros left out). */
const row = (
  date: string,
  placement: string | null,
  figures: Partial<PlacementReportRow>,
): PlacementReportRow => ({
  date,
  placement,
  searches: 0,
  searchesCompleted: 0,
  offersShown: 0,
  clicks: 0,
  secondLookLeads: 0,
  secondLookOffersShown: 0,
  secondLookClicks: 0,
  earnings: 0,
  ...figures,
})

export const EXPECTED: PlacementReportRow[] = [
  row(DAY1, 'home-hero', {
    searches: 2,
    searchesCompleted: 1,
    offersShown: 3,
    clicks: 2,
    secondLookLeads: 2,
    secondLookOffersShown: 2,
    secondLookClicks: 1,
    // 12.34 clicked under the per-click contract + 7.50, the bid the converted lead saw, under per conversion.
    earnings: 19.84,
  }),
  row(DAY1, 'quote-sidebar', {
    searches: 1,
    searchesCompleted: 1,
    offersShown: 1,
    secondLookLeads: 1,
    secondLookOffersShown: 1,
  }),
  // No placement: its own row. A click without an impression (a blocked pixel) still converts and earns.
  row(DAY1, null, {
    searches: 1,
    searchesCompleted: 1,
    secondLookLeads: 1,
    secondLookClicks: 1,
    earnings: 9,
  }),
  row(DAY2, 'home-hero', { searches: 1, clicks: 1 }),
  row(DAY2, null, { secondLookLeads: 1 }),
]

export const EXPECTED_CSV = [
  'date,placement,searches,searches_completed,offers_shown,clicks,second_look_leads,second_look_offers_shown,second_look_clicks,earnings_usd',
  `${DAY1},home-hero,2,1,3,2,2,2,1,19.84`,
  `${DAY1},quote-sidebar,1,1,1,0,1,1,0,0.00`,
  `${DAY1},(none),1,1,0,0,1,0,1,9.00`,
  `${DAY2},home-hero,1,0,0,1,0,0,0,0.00`,
  `${DAY2},(none),0,0,0,0,1,0,0,0.00`,
  '',
].join('\r\n')
