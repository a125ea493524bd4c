/**
 * @module Partner reports as CSV: each table's header and rows, values in report order, empty cells for
 * nulls, and partner text quoted and neutralised (a spreadsheet must not run a reason or a product type).
 */
import { describe, expect, it } from 'vitest'
import type { PartnerReport } from '../../../src/ledger/index.ts'
import {
  csvCell,
  REPORT_TABLES,
  type ReportTable,
  reportToCsv,
} from '../../../src/marketplace/reports/report-csv.ts'
import { partnerReport } from '../support/partner-report.ts'

const REPORT = partnerReport({
  conversionAmount: 12.5,
  averageBidByProductType: [
    { productType: 'installment_loan', offers: 2, averageBid: 14.5 },
    { productType: '=cmd|" /C calc"!A0', offers: 1, averageBid: 3 },
  ],
  replies: [
    { status: 'approved', count: 2, averageLatencyMs: 120, p95LatencyMs: 180, maxLatencyMs: 181 },
    { status: 'timeout', count: 1, averageLatencyMs: null, p95LatencyMs: null, maxLatencyMs: null },
  ],
  causes: [
    { status: 'rejected', reason: '+SUM(1,2), "no"', httpStatus: 200, count: 4, averageLatencyMs: 35 },
    { status: 'error', reason: 'HTTP 503', httpStatus: 503, count: 1, averageLatencyMs: null },
  ],
  daily: [
    {
      date: '2026-03-01',
      requests: 2,
      responsesWithOffers: 1,
      offersDisplayed: 1,
      uniqueClicks: 0,
      conversions: 0,
      spend: 0,
    },
    {
      date: '2026-03-02',
      requests: 1,
      responsesWithOffers: 1,
      offersDisplayed: 1,
      uniqueClicks: 1,
      conversions: 1,
      spend: 16.67,
    },
  ],
  leads: [
    {
      leadId: 'lead-2',
      partnerLeadId: '@lead-2',
      sentAt: '2026-03-02T10:00:00.000Z',
      status: 'approved',
      reason: null,
      httpStatus: 200,
      latencyMs: 90,
      converted: true,
      outcome: null,
      offersDropped: 1,
      offers: [
        {
          offerId: 'o-21',
          productType: 'installment_loan',
          rate: 14.5,
          result: 'won',
          outcome: 'won',
          bidRank: 1,
          gapToWinningBid: 0,
          displayed: true,
          clicked: false,
        },
        {
          offerId: 'o-22',
          productType: 'debt_relief',
          rate: 3,
          result: 'lost',
          outcome: 'outbid',
          bidRank: 2,
          gapToWinningBid: 2.17,
          displayed: false,
          clicked: false,
        },
      ],
    },
    {
      leadId: 'lead-1',
      partnerLeadId: null,
      sentAt: '2026-03-01T09:00:00.000Z',
      status: 'timeout',
      reason: '-1+1',
      httpStatus: null,
      latencyMs: null,
      converted: false,
      outcome: 'timed_out',
      offersDropped: 0,
      offers: [],
    },
  ],
  spend: 16.67,
  breakdowns: {
    state: [
      {
        value: 'CA',
        requests: 2,
        responsesWithOffers: 1,
        offers: 2,
        offersDisplayed: 1,
        uniqueClicks: 1,
        averageBid: 8.75,
      },
    ],
    creditBand: [],
    loanPurpose: [
      {
        value: 'other',
        requests: 1,
        responsesWithOffers: 0,
        offers: 0,
        offersDisplayed: 0,
        uniqueClicks: 0,
        averageBid: null,
      },
    ],
    amountBand: [],
    placement: [
      {
        value: 'home-hero',
        requests: 2,
        responsesWithOffers: 1,
        offers: 2,
        offersDisplayed: 1,
        uniqueClicks: 1,
        averageBid: 8.75,
      },
    ],
  },
})

/** The CSV's lines, after checking it is CRLF-terminated with no blank-line sections. */
function lines(csv: string): string[] {
  expect(csv.endsWith('\r\n')).toBe(true)
  expect(csv).not.toContain('\r\n\r\n')
  return csv.slice(0, -2).split('\r\n')
}

describe('reportToCsv', () => {
  it('summary: one row per metric in a fixed order, ratios empty when null, the amount to the cent', () => {
    const head = 'lender,2026-03-01T00:00:00.000Z,2026-03-03T00:00:00.000Z'
    expect(lines(reportToCsv(REPORT, 'summary'))).toEqual([
      'partner_id,from,to,metric,value',
      `${head},requests,3`,
      `${head},responses_with_offers,2`,
      `${head},offers_returned,3`,
      `${head},offers_dropped,0`,
      `${head},offers_won,2`,
      `${head},offers_displayed,2`,
      `${head},unique_clicks,1`,
      `${head},conversions,1`,
      `${head},conversion_amount_usd,12.50`,
      `${head},contract_pays,per_click`,
      `${head},spend_usd,16.67`,
      `${head},win_rate,0.6667`,
      `${head},click_through_rate,`,
    ])
  })

  // One table each: the rows of REPORT's table, in report order.
  it.each<{ title: string; table: ReportTable; rows: string[] }>([
    {
      title: 'daily: one row per day in report order',
      table: 'daily',
      rows: [
        'date,requests,responses_with_offers,offers_displayed,unique_clicks,conversions,spend_usd',
        '2026-03-01,2,1,1,0,0,0.00',
        '2026-03-02,1,1,1,1,1,16.67',
      ],
    },
    {
      title: 'products: a formula in a partner product type is neutralised and quoted',
      table: 'products',
      rows: ['product_type,offers,average_bid_usd', 'installment_loan,2,14.5', `"'=cmd|"" /C calc""!A0",1,3`],
    },
    {
      title: 'replies: empty latency cells where the partner never answered',
      table: 'replies',
      rows: [
        'status,count,average_latency_ms,p95_latency_ms,max_latency_ms',
        'approved,2,120,180,181',
        'timeout,1,,,',
      ],
    },
    {
      title: 'causes: partner reasons quoted and neutralised, ours as they are',
      table: 'causes',
      rows: [
        'status,reason,http_status,count,average_latency_ms',
        `rejected,"'+SUM(1,2), ""no""",200,4,35`,
        'error,HTTP 503,503,1,',
      ],
    },
    {
      title: 'breakdowns: one row per dimension and value, an average bid empty with no offers',
      table: 'breakdowns',
      rows: [
        'dimension,value,requests,responses_with_offers,offers,offers_displayed,unique_clicks,average_bid_usd',
        'state,CA,2,1,2,1,1,8.75',
        'loan_purpose,other,1,0,0,0,0,',
        'placement,home-hero,2,1,2,1,1,8.75',
      ],
    },
  ])('$title', ({ table, rows }) => {
    expect(lines(reportToCsv(REPORT, table))).toEqual(rows)
  })

  it('leads (the default): one row per offer with its outcome, rank and gap; one per dropped offer; a lead without offers once', () => {
    const csv = reportToCsv(REPORT)
    expect(csv).toBe(reportToCsv(REPORT, 'leads'))
    expect(lines(csv)).toEqual([
      'lead_id,partner_lead_id,sent_at,reply_status,reason,http_status,latency_ms,converted,offer_id,product_type,rate_usd,result,outcome,bid_rank,gap_to_winning_bid_usd,displayed,clicked',
      "lead-2,'@lead-2,2026-03-02T10:00:00.000Z,approved,,200,90,true,o-21,installment_loan,14.5,won,won,1,0.00,true,false",
      "lead-2,'@lead-2,2026-03-02T10:00:00.000Z,approved,,200,90,true,o-22,debt_relief,3,lost,outbid,2,2.17,false,false",
      "lead-2,'@lead-2,2026-03-02T10:00:00.000Z,approved,,200,90,true,,,,,dropped_by_contract_check,,,,",
      "lead-1,,2026-03-01T09:00:00.000Z,timeout,'-1+1,,,false,,,,,timed_out,,,,",
    ])
  })

  it('gives every table at least its header row, however empty the report', () => {
    const empty: PartnerReport = {
      ...REPORT,
      winRate: null,
      clickThroughRate: 0,
      averageBidByProductType: [],
      replies: [],
      causes: [],
      daily: [],
      leads: [],
      breakdowns: { state: [], creditBand: [], loanPurpose: [], amountBand: [], placement: [] },
    }
    for (const table of REPORT_TABLES) {
      const rows = lines(reportToCsv(empty, table))
      expect(rows[0], table).toMatch(/^[a-z_]+(,[a-z_0-9]+)+$/)
      expect(rows, table).toHaveLength(table === 'summary' ? 14 : 1)
    }
    // Null ratios are empty cells, a zero is a zero.
    const summary = lines(reportToCsv(empty, 'summary'))
    expect(summary.at(-2)).toMatch(/,win_rate,$/)
    expect(summary.at(-1)).toMatch(/,click_through_rate,0$/)
  })
})

describe('CSV cells', () => {
  it('quote separators and neutralize formulas in partner text', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell(-3)).toBe('-3')
  })
})
