/**
 * @module What the conformance checker says of an offer's `loan_terms` (docs/partner-interface.md, "Loan
 * terms"): the same schema the marketplace parses them with (the PII in them is judged by the marketplace's
 * own finder, in the no-pii check of reply-checks.ts). Terms are optional, so terms that break the schema are a warning (the marketplace drops them and keeps
 * the offer), never a failure; PII in them is a failure like PII anywhere else (it drops the offer).
 */
import { toFieldIssues } from '../contract/common.ts'
import { partnerLoanTermsSchema } from '../contract/loan-terms.ts'

/** Undefined when no offer sends terms (nothing to judge); else each malformed offer's problems and the fix. */
export function loanTermsProblems(offers: readonly unknown[]): string[] | undefined {
  const sent = offers.flatMap((offer, index) =>
    isObject(offer) && offer.loan_terms !== undefined ? [{ terms: offer.loan_terms, index }] : [],
  )
  if (sent.length === 0) return undefined
  return sent.flatMap(({ terms, index }) => {
    const parsed = partnerLoanTermsSchema.safeParse(terms)
    if (parsed.success) return []
    const reasons = [...new Set(toFieldIssues(parsed.error).map((issue) => issue.reason))]
    return [
      `${reasons.map((reason) => reason.replaceAll('offers[].', `offers.${index}.`)).join('; ')}: the marketplace drops these terms and shows the offer without them`,
    ]
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
