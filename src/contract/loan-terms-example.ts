/**
 * @module A monthly payment shown only with its representative example (docs/partner-interface.md, "Loan
 * terms"): the rules that span several figures of terms that already passed `partnerLoanTermsSchema`. An
 * example whose payment is not the amortised payment of its own amount, APR and term, or that lies outside
 * the offer's own ranges, is dropped; a `monthly_payment_usd` left without an example, or other than the
 * example's, is dropped. The rest of the terms and the offer stay. Shared by the marketplace (at the boundary
 * and again when a stored row is read) and the conformance checker, so both say the same.
 */
import type { PartnerLoanTerms, Range, RepresentativeExample } from './loan-terms.ts'
import { monthlyPayment } from './monthly-payment.ts'

/**
 * How far an example's payment may stray: the payment of an APR 1/8 of a percentage point either side (the
 * APR tolerance of Regulation Z, 12 CFR 1026.22(a)(2)), and a cent for rounding. It absorbs a lender's own
 * day count and rounding, and catches a payment of another amount, rate or term.
 */
const APR_TOLERANCE_POINTS = 0.125

const E = 'offers[].loan_terms.representative_example'
const PAYMENT = 'offers[].loan_terms.monthly_payment_usd'

/** The payments an example's figures allow, lowest and highest, cents included. */
export function examplePaymentBand(example: RepresentativeExample): { low: number; high: number } {
  const { amount_usd: amount, apr_percent: apr, term_months: months } = example
  return {
    low: monthlyPayment(amount, Math.max(0, apr - APR_TOLERANCE_POINTS), months) - 0.01,
    high: monthlyPayment(amount, apr + APR_TOLERANCE_POINTS, months) + 0.01,
  }
}

/** Why an example cannot stand beside these terms, naming the field and the fix; undefined when it can. */
function exampleProblem(terms: PartnerLoanTerms): string | undefined {
  const example = terms.representative_example
  if (example === undefined) return undefined
  const { low, high } = examplePaymentBand(example)
  if (example.monthly_payment_usd < low || example.monthly_payment_usd > high) {
    return `${E} dropped: its monthly_payment_usd is not the amortised payment of its amount_usd at its apr_percent over its term_months (within 1/8 of a point of APR): send the payment those figures give`
  }
  const outside = (
    [
      ['amount_usd', example.amount_usd, terms.amount_usd],
      ['apr_percent', example.apr_percent, terms.apr_percent],
      ['term_months', example.term_months, terms.term_months],
    ] as Array<[string, number, Range | undefined]>
  ).find(([, value, range]) => range !== undefined && (value < range.min || value > range.max))
  if (outside !== undefined) {
    const [field] = outside
    return `${E} dropped: its ${field} is outside the offer's ${field} range: give an example of a loan this offer makes`
  }
  return undefined
}

/** The terms with what may not be shown taken out, and why each part was taken out. */
export function trimLoanTerms(terms: PartnerLoanTerms): { terms: PartnerLoanTerms; dropped: string[] } {
  const dropped: string[] = []
  const { representative_example: example, monthly_payment_usd: payment, ...rest } = terms
  const problem = exampleProblem(terms)
  if (problem !== undefined) dropped.push(problem)
  const kept = problem === undefined ? example : undefined
  if (payment !== undefined && kept === undefined) {
    dropped.push(
      `${PAYMENT} dropped: a monthly payment is shown only with its representative_example; send one whose payment it is`,
    )
  } else if (
    payment !== undefined &&
    kept !== undefined &&
    Math.abs(payment - kept.monthly_payment_usd) > 0.01
  ) {
    dropped.push(
      `${PAYMENT} dropped: it is not the representative_example's monthly_payment_usd; send the example's payment, or leave it out`,
    )
  }
  const keepPayment = payment !== undefined && kept !== undefined && dropped.length === 0
  return {
    terms: {
      ...rest,
      ...(keepPayment ? { monthly_payment_usd: payment } : {}),
      ...(kept === undefined ? {} : { representative_example: kept }),
    },
    dropped,
  }
}
