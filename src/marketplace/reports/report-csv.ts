/**
 * @module A partner report as CSV: the figures (`metric,product_type,value`), a blank line, then the
 * lead-level win/loss table, one row per offer (or per lead without offers). Cells a spreadsheet would run
 * as a formula are prefixed with `'`, since product types are partner text.
 */
import type { PartnerReport } from '../../ledger/index.ts'

export function reportToCsv(report: PartnerReport): string {
  const figures: unknown[][] = [
    ['metric', 'product_type', 'value'],
    ['partner_id', '', report.partnerId],
    ['from', '', report.from],
    ['to', '', report.to],
    ['requests', '', report.requests],
    ['responses_with_offers', '', report.responsesWithOffers],
    ['offers_returned', '', report.offersReturned],
    ['offers_displayed', '', report.offersDisplayed],
    ['unique_clicks', '', report.uniqueClicks],
    ...report.averageBidByProductType.map((row) => ['average_bid', row.productType, row.averageBid]),
  ]
  const leads: unknown[][] = [
    [
      'lead_id',
      'partner_lead_id',
      'sent_at',
      'reply_status',
      'offer_id',
      'product_type',
      'rate',
      'result',
      'clicked',
    ],
  ]
  for (const lead of report.leads) {
    const head = [lead.leadId, lead.partnerLeadId ?? '', lead.sentAt, lead.status]
    if (lead.offers.length === 0) leads.push([...head, '', '', '', '', ''])
    for (const offer of lead.offers) {
      leads.push([...head, offer.offerId, offer.productType, offer.rate, offer.result, offer.clicked])
    }
  }
  const lines = (rows: unknown[][]) => rows.map((row) => row.map(csvCell).join(',')).join('\r\n')
  return `${lines(figures)}\r\n\r\n${lines(leads)}\r\n`
}

export function csvCell(value: unknown): string {
  let text = String(value ?? '')
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}
