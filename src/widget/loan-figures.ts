/**
 * @module A loan offer's terms as the labelled figures its card shows: "APR 8.99%–35.99%", "Loan amount
 * $1,000–$50,000", "Term 24–60 months". Numbers follow US conventions in the labels' language; a range
 * whose ends are equal is one figure. Pure, so the server and the browser print the same text.
 */
import type { LoanTerms } from '../contract/rate-table.ts'
import { formatLabel, type Labels } from './labels.ts'

export interface Figure {
  label: string
  value: string
}

type Range = { min: number; max: number }

const span = (range: Range, one: (n: number) => string) =>
  range.min === range.max ? one(range.min) : `${one(range.min)}–${one(range.max)}`

/** The figures in the order a visitor compares loans: rate, amount, term, payment, fee. */
export function loanFigures(terms: LoanTerms, labels: Labels): Figure[] {
  // US loans in dollars: US conventions in any language ("es" would print "25.000 US$").
  const lang = labels.lang.includes('-') ? labels.lang : `${labels.lang}-US`
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 })
  const percent = (n: number) => `${number.format(n)}%`
  // Whole dollars for amounts; cents only where a payment has them.
  const dollars = (n: number) =>
    new Intl.NumberFormat(lang, {
      style: 'currency',
      currency: 'USD',
      maximumFractionDigits: Number.isInteger(n) ? 0 : 2,
      minimumFractionDigits: Number.isInteger(n) ? 0 : 2,
    }).format(n)
  const out: Figure[] = []
  if (terms.aprPercent) out.push({ label: labels.termsApr, value: span(terms.aprPercent, percent) })
  if (terms.amountUsd) out.push({ label: labels.termsAmount, value: span(terms.amountUsd, dollars) })
  if (terms.termMonths) {
    const months = span(terms.termMonths, (n) => number.format(n))
    out.push({ label: labels.termsTerm, value: formatLabel(labels.termsMonths, { months }) })
  }
  if (terms.monthlyPaymentUsd !== undefined)
    out.push({ label: labels.termsMonthly, value: dollars(terms.monthlyPaymentUsd) })
  if (terms.originationFeePercent)
    out.push({ label: labels.termsFee, value: span(terms.originationFeePercent, percent) })
  return out
}
