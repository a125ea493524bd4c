/**
 * @module A partner report to draw or export in tests: the figures every report test starts from, each test
 * giving what it checks (its counts, ratios and tables) as overrides.
 */
import type { PartnerReport } from '../../../src/ledger/index.ts'

/** Two days of one partner, `lender`: two of three offers won and displayed, one click, one conversion. */
export function partnerReport(overrides: Partial<PartnerReport>): PartnerReport {
  return {
    partnerId: 'lender',
    from: '2026-03-01T00:00:00.000Z',
    to: '2026-03-03T00:00:00.000Z',
    requests: 3,
    responsesWithOffers: 2,
    offersReturned: 3,
    offersWon: 2,
    offersDisplayed: 2,
    uniqueClicks: 1,
    conversions: 1,
    conversionAmount: 0,
    currency: 'USD',
    pays: 'per_click',
    spend: 0,
    offersDropped: 0,
    winRate: 0.6667,
    clickThroughRate: null,
    averageBidByProductType: [],
    replies: [],
    causes: [],
    daily: [],
    breakdowns: { state: [], creditBand: [], loanPurpose: [], amountBand: [], placement: [] },
    leads: [],
    leadsTruncated: false,
    ...overrides,
  }
}
