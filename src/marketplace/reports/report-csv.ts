/**
 * @module A partner report as CSV, one table per file (`?table=`): a spreadsheet opens each as it is, with
 * one header row and no blank-line sections. Cells a spreadsheet would run as a formula are prefixed with
 * `'`, since reasons, product types and lead ids are partner text.
 */
import type {
  BreakdownDimension,
  DuplicatesReport,
  PartnerReport,
  PlacementsReport,
  SuppressionList,
} from '../../ledger/index.ts'
import { isFormulaLike } from './csv-formula.ts'

export const REPORT_TABLES = [
  'summary',
  'daily',
  'products',
  'replies',
  'causes',
  'leads',
  'breakdowns',
] as const
export type ReportTable = (typeof REPORT_TABLES)[number]
/** What `Accept: text/csv` alone downloads: the lead-level win/loss, the one a partner reconciles. */
export const DEFAULT_REPORT_TABLE: ReportTable = 'leads'

export function reportToCsv(report: PartnerReport, table: ReportTable = DEFAULT_REPORT_TABLE): string {
  return toCsv(rowsOf(report, table))
}

function rowsOf(report: PartnerReport, table: ReportTable): unknown[][] {
  switch (table) {
    case 'summary':
      return [
        ['partner_id', 'from', 'to', 'metric', 'value'],
        ...(
          [
            ['requests', report.requests],
            ['responses_with_offers', report.responsesWithOffers],
            ['offers_returned', report.offersReturned],
            ['offers_dropped', report.offersDropped],
            ['offers_won', report.offersWon],
            ['offers_displayed', report.offersDisplayed],
            ['unique_clicks', report.uniqueClicks],
            ['conversions', report.conversions],
            ['conversion_amount_usd', report.conversionAmount.toFixed(2)],
            ['contract_pays', report.pays],
            ['spend_usd', report.spend.toFixed(2)],
            ['win_rate', report.winRate ?? ''],
            ['click_through_rate', report.clickThroughRate ?? ''],
          ] as const
        ).map(([metric, value]) => [report.partnerId, report.from, report.to, metric, value]),
      ]
    case 'daily':
      return [
        [
          'date',
          'requests',
          'responses_with_offers',
          'offers_displayed',
          'unique_clicks',
          'conversions',
          'spend_usd',
        ],
        ...report.daily.map((d) => [
          d.date,
          d.requests,
          d.responsesWithOffers,
          d.offersDisplayed,
          d.uniqueClicks,
          d.conversions,
          d.spend.toFixed(2),
        ]),
      ]
    case 'products':
      return [
        ['product_type', 'offers', 'average_bid_usd'],
        ...report.averageBidByProductType.map((p) => [p.productType, p.offers, p.averageBid]),
      ]
    case 'replies':
      return [
        ['status', 'count', 'average_latency_ms', 'p95_latency_ms', 'max_latency_ms'],
        ...report.replies.map((r) => [r.status, r.count, r.averageLatencyMs, r.p95LatencyMs, r.maxLatencyMs]),
      ]
    case 'causes':
      return [
        ['status', 'reason', 'http_status', 'count', 'average_latency_ms'],
        ...report.causes.map((r) => [r.status, r.reason, r.httpStatus, r.count, r.averageLatencyMs]),
      ]
    case 'leads':
      return leadRows(report)
    case 'breakdowns':
      return breakdownRows(report)
  }
}

export function suppressionToCsv(list: SuppressionList): string {
  return toCsv([
    ['partner_lead_id', 'lead_id', 'sent_at'],
    ...list.leads.map((l) => [l.partnerLeadId, l.leadId, l.sentAt]),
  ])
}

/** The operator's duplicate applications per UTC day: `shown` got the first application's offers, `refused` a 409. */
export function duplicatesToCsv(report: DuplicatesReport): string {
  return toCsv([
    ['date', 'duplicates', 'shown', 'refused'],
    ...report.daily.map((d) => [d.date, d.duplicates, d.shown, d.refused]),
  ])
}

/** What the report shows for searches and leads that carried no placement: never a placement (no parentheses). */
const NO_PLACEMENT = '(none)'

/** The publisher's report per UTC day and placement (docs/placements.md); earnings in USD with two decimals. */
export function placementsToCsv(report: PlacementsReport): string {
  return toCsv([
    [
      'date',
      'placement',
      'searches',
      'searches_completed',
      'offers_shown',
      'clicks',
      'second_look_leads',
      'second_look_offers_shown',
      'second_look_clicks',
      'earnings_usd',
    ],
    ...report.rows.map((r) => [
      r.date,
      r.placement ?? NO_PLACEMENT,
      r.searches,
      r.searchesCompleted,
      r.offersShown,
      r.clicks,
      r.secondLookLeads,
      r.secondLookOffersShown,
      r.secondLookClicks,
      r.earnings.toFixed(2),
    ]),
  ])
}

function toCsv(rows: unknown[][]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`
}

export function csvCell(value: unknown): string {
  let text = String(value ?? '')
  if (typeof value === 'string' && isFormulaLike(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const LEAD_COLUMNS = [
  'lead_id',
  'partner_lead_id',
  'sent_at',
  'reply_status',
  'reason',
  'http_status',
  'latency_ms',
  'converted',
  'offer_id',
  'product_type',
  'rate_usd',
  'result',
  'outcome',
  'bid_rank',
  'gap_to_winning_bid_usd',
  'displayed',
  'clicked',
]

/**
 * One row per lead and offer, and one per offer a contract check dropped (only its outcome: nothing of it
 * is stored); a lead with neither, one row with its offer columns empty but the outcome of a timeout.
 */
function leadRows(report: PartnerReport): unknown[][] {
  const rows: unknown[][] = [LEAD_COLUMNS]
  for (const lead of report.leads) {
    const head = [
      lead.leadId,
      lead.partnerLeadId,
      lead.sentAt,
      lead.status,
      lead.reason,
      lead.httpStatus,
      lead.latencyMs,
      lead.converted,
    ]
    const outcomeOnly = (outcome: string | null) => [...head, '', '', '', '', outcome, '', '', '', '']
    for (const o of lead.offers) {
      const gap = o.gapToWinningBid === null ? '' : o.gapToWinningBid.toFixed(2)
      rows.push([
        ...head,
        o.offerId,
        o.productType,
        o.rate,
        o.result,
        o.outcome,
        o.bidRank,
        gap,
        o.displayed,
        o.clicked,
      ])
    }
    for (let i = 0; i < lead.offersDropped; i++) rows.push(outcomeOnly('dropped_by_contract_check'))
    if (lead.offers.length === 0 && lead.offersDropped === 0) rows.push(outcomeOnly(lead.outcome))
  }
  return rows
}

/** The report's dimensions in the CSV's words, in the order the table lists them. */
const DIMENSION_NAMES: Record<BreakdownDimension, string> = {
  state: 'state',
  creditBand: 'credit_band',
  loanPurpose: 'loan_purpose',
  amountBand: 'amount_band',
  placement: 'placement',
}

/** One row per dimension and value: a spreadsheet filters on `dimension`. */
function breakdownRows(report: PartnerReport): unknown[][] {
  const rows: unknown[][] = [
    [
      'dimension',
      'value',
      'requests',
      'responses_with_offers',
      'offers',
      'offers_displayed',
      'unique_clicks',
      'average_bid_usd',
    ],
  ]
  for (const [dimension, name] of Object.entries(DIMENSION_NAMES) as Array<[BreakdownDimension, string]>) {
    for (const b of report.breakdowns[dimension]) {
      rows.push([
        name,
        b.value,
        b.requests,
        b.responsesWithOffers,
        b.offers,
        b.offersDisplayed,
        b.uniqueClicks,
        b.averageBid,
      ])
    }
  }
  return rows
}
