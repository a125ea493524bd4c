/**
 * @module One offer's `loan_terms` at the boundary (offer-terms.ts), as a table: the PII rule first, on every
 * key and figure by its string form (the offer is dropped), then the contract (the terms are dropped), and
 * never a partner's value in the problem said.
 */
import { describe, expect, it } from 'vitest'
import type { Lead } from '../../../src/contract/partner.ts'
import { judgeLoanTerms } from '../../../src/marketplace/fan-out/offer-terms.ts'
import { createPiiFinder } from '../../../src/marketplace/fan-out/pii-finder.ts'
import { makeKnownLead } from '../support/harness.ts'

// SSN 987-65-4329, phone 202-555-0147, ZIP 95814, asked 12 000 USD.
const findPii = createPiiFinder(makeKnownLead() as unknown as Lead)
const judge = (terms: unknown) => judgeLoanTerms(terms, 3, findPii)

describe('judgeLoanTerms', () => {
  it('has nothing to say of an offer without terms', () => {
    expect(judge(undefined)).toEqual({ kind: 'none' })
  })

  it("passes figures that are only numbers, the lead's ZIP and asked amount among them", () => {
    const terms = {
      apr_percent: { min: 5.99, max: 35.99 },
      amount_usd: { min: 12_000, max: 95_814 },
      term_months: { min: 24, max: 60 },
      monthly_payment_usd: 231.94,
      offer_kind: 'pre_approved',
      representative_example: {
        amount_usd: 12_000,
        apr_percent: 5.99,
        term_months: 60,
        monthly_payment_usd: 231.94,
      },
    }
    expect(judge(terms)).toEqual({ kind: 'valid', terms })
  })

  it('drops a payment the example does not give, and an inconsistent example, keeping the rest', () => {
    const verdict = judge({
      apr_percent: { min: 5.99, max: 35.99 },
      monthly_payment_usd: 202.55,
      representative_example: {
        amount_usd: 12_000,
        apr_percent: 5.99,
        term_months: 60,
        monthly_payment_usd: 202.55,
      },
    })
    expect(verdict).toEqual({
      kind: 'valid',
      terms: { apr_percent: { min: 5.99, max: 35.99 } },
      trimmed: [
        expect.stringContaining(
          'offers[3].loan_terms.representative_example dropped: its monthly_payment_usd is not',
        ),
        expect.stringContaining(
          'offers[3].loan_terms.monthly_payment_usd dropped: a monthly payment is shown only',
        ),
      ],
    })
  })

  it('drops terms that were only a payment without its example, saying why', () => {
    const verdict = judge({ monthly_payment_usd: 202.55 })
    expect(verdict.kind).toBe('malformed')
    expect(verdict.kind === 'malformed' && verdict.problem).toContain(
      'offers[3].loan_terms.monthly_payment_usd dropped: a monthly payment is shown only with its representative_example',
    )
  })

  it.each<[string, unknown, string]>([
    [
      'the SSN as an amount',
      { amount_usd: { min: 1, max: 987_654_329 } },
      "amount_usd.max carries the lead's SSN",
    ],
    [
      'the SSN with a decimal point',
      { amount_usd: { min: 1, max: 9_876_543.29 } },
      "amount_usd.max carries the lead's SSN",
    ],
    [
      'the phone as a payment',
      { monthly_payment_usd: 2_025_550_147 },
      "monthly_payment_usd carries the lead's phone number",
    ],
    [
      'the phone as a string',
      { monthly_payment_usd: '(202) 555-0147' },
      "monthly_payment_usd carries the lead's phone number",
    ],
    ['the SSN as a key', { '987-65-4329': 1 }, "offers[3].loan_terms (a key) carries the lead's SSN"],
    [
      'the email deep inside',
      { apr_percent: { min: { note: 'pii.probe.lead@example.com' } } },
      "carries the lead's email",
    ],
  ])('drops the offer for %s, naming the field and the kind, not the value', (_name, terms, problem) => {
    const verdict = judge(terms)
    expect(verdict.kind).toBe('pii')
    const said = verdict.kind === 'pii' ? verdict.problem : ''
    expect(said).toContain(problem)
    expect(said).not.toMatch(/987|4329|555|probe/)
  })

  it('drops only the terms when they break the contract, with the offer named by its position', () => {
    const verdict = judge({ apr_percent: { min: 30, max: 10 }, teaser: 'low' })
    expect(verdict.kind).toBe('malformed')
    const said = verdict.kind === 'malformed' ? verdict.problem : ''
    expect(said).toContain('offers[3].loan_terms must be an object with any of apr_percent')
    expect(said).not.toContain('teaser')
    expect(said).not.toContain('offers[].')
  })

  it('reads a large tree only as far as a bound, and refuses it', () => {
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))
    expect(judge(wide).kind).toBe('malformed')
    let deep: unknown = 1
    for (let i = 0; i < 1_000; i++) deep = { apr_percent: deep }
    expect(judge(deep).kind).toBe('malformed')
  })
})
