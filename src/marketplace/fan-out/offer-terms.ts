/**
 * @module One offer's `loan_terms` judged at the boundary (docs/partner-interface.md, "Loan terms";
 * docs/decisions/0108-loan-terms.md). First the PII rule, on every value the partner sent there (numbers by
 * their string form, keys too, whether or not the terms parse): PII drops the offer whole, as in any other
 * field (docs/decisions/0097-pii-in-partner-replies.md). Then the contract: terms that break it are dropped
 * alone and the offer stays, shown as its copy says; then the rules across figures (loan-terms-example.ts):
 * an inconsistent example and a payment without its example are dropped, the rest kept. Each problem is said
 * in the reply's reason, never with the value.
 */
import { toFieldIssues } from '../../contract/common.ts'
import { type PartnerLoanTerms, partnerLoanTermsSchema } from '../../contract/loan-terms.ts'
import { trimLoanTerms } from '../../contract/loan-terms-example.ts'
import { type PiiFinder, piiProblem } from './pii-finder.ts'

export type TermsVerdict =
  | { kind: 'none' }
  /** `trimmed`, when present: the parts dropped (an inconsistent example, a payment without one), and why. */
  | { kind: 'valid'; terms: PartnerLoanTerms; trimmed?: string[] }
  /** The terms are dropped, the offer kept: `problem` names the field and the fix. */
  | { kind: 'malformed'; problem: string }
  /** The offer is dropped: `problem` names the field and the kind of PII. */
  | { kind: 'pii'; problem: string }

/** Past these, the terms are malformed anyway; the walk stops rather than read a partner's whole tree. */
const MAX_DEPTH = 4
const MAX_VALUES = 64

/** Messages name the field as `offers[].loan_terms...`; the reason names the offer's position. */
export function judgeLoanTerms(raw: unknown, position: number, findPii: PiiFinder): TermsVerdict {
  if (raw === undefined) return { kind: 'none' }
  const field = `offers[${position}].loan_terms`
  for (const [path, value] of leaves(raw, field)) {
    const found = findPii(value)
    if (found !== undefined) return { kind: 'pii', problem: piiProblem(path, found) }
  }
  const at = (reasons: string[]) =>
    reasons.map((reason) => reason.replaceAll('offers[].', `offers[${position}].`)).join(', ')
  const parsed = partnerLoanTermsSchema.safeParse(raw)
  if (!parsed.success)
    return { kind: 'malformed', problem: at([...new Set(toFieldIssues(parsed.error).map((i) => i.reason))]) }
  const { terms, dropped } = trimLoanTerms(parsed.data)
  if (dropped.length === 0) return { kind: 'valid', terms }
  // Terms that were only a payment without its example say nothing once it is gone.
  if (Object.keys(terms).length === 0) return { kind: 'malformed', problem: at(dropped) }
  return { kind: 'valid', terms, trimmed: dropped.map((reason) => at([reason])) }
}

/**
 * Every string the PII finder reads in `value`: each key and each scalar (a number by its string form, so
 * `987654329` or `9876543.29` as an amount is the SSN's digits), with where it is, its path named by keys
 * the partner chose only once they passed the finder themselves.
 */
function leaves(value: unknown, root: string): Array<[string, string]> {
  const out: Array<[string, string]> = []
  const walk = (node: unknown, path: string, depth: number) => {
    if (out.length >= MAX_VALUES) return
    if (node === null || typeof node !== 'object') {
      if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint')
        out.push([path, String(node)])
      return
    }
    if (depth >= MAX_DEPTH) return
    for (const [key, child] of Object.entries(node)) {
      // A key is a value the partner sent too; where it is named, the path stops at its parent.
      out.push([`${path} (a key)`, key])
      walk(child, Array.isArray(node) ? `${path}[${key}]` : `${path}.${safeKey(key)}`, depth + 1)
    }
  }
  walk(value, root, 0)
  return out
}

/** A key named in a reason: ours as they are, any other replaced (it could carry what the finder missed). */
function safeKey(key: string): string {
  return /^[a-z_]{1,40}$/.test(key) ? key : '(unknown key)'
}
