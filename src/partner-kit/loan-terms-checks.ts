/**
 * @module What the conformance checker says of an offer's `loan_terms` (docs/partner-interface.md, "Loan
 * terms"): the same schema the marketplace parses them with (the PII in them is judged by the marketplace's
 * own finder, in the no-pii check of reply-checks.ts), then what a lender's compliance reviewer would flag:
 * no `offer_kind`, a payment without its representative example or an example inconsistent with itself or the
 * offer (the marketplace's own rules, loan-terms-example.ts), and copy that names an amount the offer does not
 * lend. Terms are optional, so all of it is a warning (the marketplace drops what breaks and keeps the offer),
 * never a failure; PII in them is a failure like PII anywhere else (it drops the offer).
 */
import { toFieldIssues } from '../contract/common.ts'
import { LOAN_TERM_FIELDS, type PartnerLoanTerms, partnerLoanTermsSchema } from '../contract/loan-terms.ts'
import { trimLoanTerms } from '../contract/loan-terms-example.ts'
import { monthlyPayment } from '../contract/monthly-payment.ts'
import { amountsInCopy } from './copy-amounts.ts'

/** The bounds a lender could offer, as a warning names them: "apr_percent 1-36, amount_usd 100-100000, ...". */
const LOAN_TERM_BOUNDS = Object.entries(LOAN_TERM_FIELDS)
  .map(([field, bounds]) => `${field} ${bounds.min}-${bounds.max}`)
  .join(', ')

/** Undefined when no offer sends terms (nothing to judge); else each offer's problems and the fix. */
export function loanTermsProblems(offers: readonly unknown[]): string[] | undefined {
  const sent = offers.flatMap((offer, index) =>
    isObject(offer) && offer.loan_terms !== undefined ? [{ offer, index }] : [],
  )
  if (sent.length === 0) return undefined
  return sent.flatMap(({ offer, index }) => {
    const parsed = partnerLoanTermsSchema.safeParse(offer.loan_terms)
    const at = (reason: string) => reason.replaceAll('offers[].', `offers.${index}.`)
    if (!parsed.success) {
      const reasons = [...new Set(toFieldIssues(parsed.error).map((issue) => at(issue.reason)))]
      return [
        `${reasons.join('; ')}: the marketplace drops these terms and shows the offer without them (bounds: ${LOAN_TERM_BOUNDS})`,
      ]
    }
    const copy = typeof offer.offer_details === 'string' ? offer.offer_details : undefined
    return termsProblems(parsed.data, copy).map(at)
  })
}

/** What a reviewer would flag in terms that passed the schema; field names as `offers[].loan_terms...`. */
function termsProblems(terms: PartnerLoanTerms, copy: string | undefined): string[] {
  const problems: string[] = []
  if (terms.offer_kind === undefined)
    problems.push(
      'offers[].loan_terms.offer_kind is missing: send pre_qualified, pre_approved or advertised; the widget leads the card with it',
    )
  const example = terms.representative_example
  for (const dropped of trimLoanTerms(terms).dropped) {
    const gives =
      example && dropped.includes('amortised payment')
        ? ` (its figures give ${monthlyPayment(example.amount_usd, example.apr_percent, example.term_months)} a month)`
        : ''
    problems.push(`${dropped}${gives}: the marketplace shows the rest of the terms without it`)
  }
  const lent = lentAmounts(terms)
  if (copy !== undefined && lent !== undefined) {
    const outside = amountsInCopy(copy).filter((amount) => amount < lent.min || amount > lent.max)
    if (outside.length > 0)
      problems.push(
        `offers[].offer_details names ${outside.map((a) => `$${a.toLocaleString('en-US')}`).join(', ')}, outside the offer's amounts (${lent.min}-${lent.max} USD in amount_usd and representative_example): name only amounts this offer lends`,
      )
  }
  return problems
}

/** The amounts the offer says it lends: its `amount_usd` range widened to its example's amount. */
function lentAmounts(terms: PartnerLoanTerms): { min: number; max: number } | undefined {
  const figures = [
    ...(terms.amount_usd ? [terms.amount_usd.min, terms.amount_usd.max] : []),
    ...(terms.representative_example ? [terms.representative_example.amount_usd] : []),
  ]
  return figures.length === 0 ? undefined : { min: Math.min(...figures), max: Math.max(...figures) }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
