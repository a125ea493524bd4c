/**
 * @module docs/partner-interface.md's "Loan terms" cannot drift from the code: its table has a row for every
 * figure of `LOAN_TERM_FIELDS` with the contract's bounds, and its example is a reply offer the contract
 * takes whose `loan_terms` are the reference partner's own for a fair score and 12 000 USD asked.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  LOAN_TERM_FIELDS,
  type PartnerLoanTermField,
  partnerLoanTermsSchema,
} from '../../src/contract/loan-terms.ts'
import { partnerReplySchema } from '../../src/contract/partner.ts'
import { loanTerms, PRODUCT_RULES } from '../../src/partner-kit/reference-rules.ts'

const doc = readFileSync(new URL('../../docs/partner-interface.md', import.meta.url), 'utf8')
const section = doc.slice(
  doc.indexOf('## Loan terms'),
  doc.indexOf('\n## ', doc.indexOf('## Loan terms') + 1),
)
const spaced = (n: number) => n.toLocaleString('en-US').replaceAll(',', ' ')

describe('docs/partner-interface.md, Loan terms', () => {
  it.each(
    Object.entries(LOAN_TERM_FIELDS) as Array<
      [PartnerLoanTermField, (typeof LOAN_TERM_FIELDS)[PartnerLoanTermField]]
    >,
  )('has a row for %s with its bounds', (field, bounds) => {
    const row = section.split('\n').find((line) => line.startsWith(`| \`${field}\` |`))
    expect(row, field).toBeDefined()
    expect(row).toContain(`| ${spaced(bounds.min)} to ${spaced(bounds.max)} |`)
    expect(row?.includes('range'), field).toBe(bounds.range)
    expect(row?.includes('whole'), field).toBe(bounds.whole)
  })

  it("has an example offer the contract takes, with the reference partner's terms", () => {
    const json = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
    const offer = JSON.parse(json) as { loan_terms: unknown }
    expect(partnerReplySchema.safeParse({ status: 'approved', lead_id: 'x', offers: [offer] }).success).toBe(
      true,
    )
    expect(partnerLoanTermsSchema.parse(offer.loan_terms)).toEqual(
      loanTerms(PRODUCT_RULES.installment_loan, 'fair', 12_000),
    )
  })
})
