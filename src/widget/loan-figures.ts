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

/** "a–b" with `unit` once at the end ("17.99–35.99%", "24–60"); one figure when the ends are equal. */
const span = (range: Range, one: (n: number) => string, unit = '') =>
  range.min === range.max ? `${one(range.min)}${unit}` : `${one(range.min)}–${one(range.max)}${unit}`

/**
 * The figures in the order a visitor compares loans: rate, amount, term, payment, fee. Short enough that two
 * sit side by side on a phone's card without breaking inside a figure, as NerdWallet's cards read: an
 * amount range in thousands ("$1K–$50K"); a payment exact, to the cent when it has cents.
 */
export function loanFigures(terms: LoanTerms, labels: Labels): Figure[] {
  // US loans in dollars: US conventions in any language ("es" would print "25.000 US$").
  const lang = labels.lang.includes('-') ? labels.lang : `${labels.lang}-US`
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format
  // Cents only where a payment has them; thousands ("$9.6K") for an amount range.
  const dollars = (n: number, compact?: boolean) =>
    new Intl.NumberFormat(lang, {
      style: 'currency',
      currency: 'USD',
      notation: compact ? 'compact' : 'standard',
      minimumFractionDigits: compact || Number.isInteger(n) ? 0 : 2,
      maximumFractionDigits: compact ? 1 : Number.isInteger(n) ? 0 : 2,
    }).format(n)
  const out: Figure[] = []
  if (terms.aprPercent) out.push({ label: labels.termsApr, value: span(terms.aprPercent, number, '%') })
  if (terms.amountUsd) {
    const { min, max } = terms.amountUsd
    out.push({
      label: labels.termsAmount,
      value: span(terms.amountUsd, (n) => dollars(n, min >= 1000 && max > min)),
    })
  }
  if (terms.termMonths) {
    out.push({
      label: labels.termsTerm,
      value: formatLabel(labels.termsMonths, { months: span(terms.termMonths, number) }),
    })
  }
  if (terms.monthlyPaymentUsd !== undefined)
    out.push({ label: labels.termsMonthly, value: dollars(terms.monthlyPaymentUsd) })
  if (terms.originationFeePercent)
    out.push({ label: labels.termsFee, value: span(terms.originationFeePercent, number, '%') })
  return out
}
