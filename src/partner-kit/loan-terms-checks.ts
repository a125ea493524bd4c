/**
 * @module What the conformance checker says of an offer's `loan_terms` (docs/partner-interface.md, "Loan
 * terms"): the same schema the marketplace parses them with, and every value in them for the PII check.
 * Terms are optional, so terms that break the schema are a warning (the marketplace drops them and keeps
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

/** Past these the terms are malformed anyway: the walk stops. */
const MAX_DEPTH = 4
const MAX_VALUES = 64

/**
 * Every key and scalar in an offer's `loan_terms`, by where it is and its string form: a figure is a
 * number, so the PII check compares its digits (`9876543.29` is an SSN's nine digits).
 */
export function loanTermsValues(offer: unknown, index: number): Array<[string, string]> {
  if (!isObject(offer) || offer.loan_terms === undefined) return []
  const out: Array<[string, string]> = []
  const walk = (node: unknown, path: string, depth: number) => {
    if (out.length >= MAX_VALUES) return
    if (typeof node === 'string' || typeof node === 'number') out.push([path, String(node)])
    if (node === null || typeof node !== 'object' || depth >= MAX_DEPTH) return
    for (const [key, child] of Object.entries(node)) {
      out.push([`${path} (a key)`, key])
      walk(child, `${path}.${key}`, depth + 1)
    }
  }
  walk(offer.loan_terms, `offers.${index}.loan_terms`, 0)
  return out
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
