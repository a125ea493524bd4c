/**
 * @module A payment only with its representative example (src/contract/loan-terms-example.ts), as a table:
 * an example consistent with its own figures and the offer's ranges is kept with its payment; an
 * inconsistent one, a payment without one, and a payment other than the example's are dropped, each with the
 * field and the fix, the rest of the terms kept.
 */
import { describe, expect, it } from 'vitest'
import type { PartnerLoanTerms } from '../../src/contract/loan-terms.ts'
import { examplePaymentBand, trimLoanTerms } from '../../src/contract/loan-terms-example.ts'

// The card: 12 000 USD at 17.99 % over 60 months is 304.66 a month.
const EXAMPLE = { amount_usd: 12_000, apr_percent: 17.99, term_months: 60, monthly_payment_usd: 304.66 }
const RANGES = {
  apr_percent: { min: 17.99, max: 35.99 },
  amount_usd: { min: 9_600, max: 14_400 },
  term_months: { min: 24, max: 60 },
}

describe('trimLoanTerms', () => {
  it.each<[string, PartnerLoanTerms]>([
    [
      'the example with its payment',
      { ...RANGES, monthly_payment_usd: 304.66, representative_example: EXAMPLE },
    ],
    ['the example alone', { representative_example: EXAMPLE }],
    [
      'a payment a lender rounded up a cent',
      { representative_example: { ...EXAMPLE, monthly_payment_usd: 304.67 } },
    ],
    [
      'a payment within 1/8 of a point of APR',
      { representative_example: { ...EXAMPLE, monthly_payment_usd: 305.4 } },
    ],
    [
      'an interest-free example',
      { representative_example: { ...EXAMPLE, apr_percent: 1, monthly_payment_usd: 205.12 } },
    ],
    ['terms with no payment at all', { ...RANGES, offer_kind: 'pre_qualified' }],
  ])('keeps %s', (_name, terms) => {
    expect(trimLoanTerms(terms)).toEqual({ terms, dropped: [] })
  })

  it.each<[string, PartnerLoanTerms, PartnerLoanTerms, string[]]>([
    [
      'a payment without its example',
      { ...RANGES, monthly_payment_usd: 304.66 },
      RANGES,
      ['monthly_payment_usd dropped: a monthly payment is shown only with its representative_example'],
    ],
    [
      'an example whose payment is of another APR',
      { ...RANGES, representative_example: { ...EXAMPLE, monthly_payment_usd: 266.87 } },
      RANGES,
      ['representative_example dropped: its monthly_payment_usd is not the amortised payment'],
    ],
    [
      'an inconsistent example and the payment that leaned on it',
      {
        ...RANGES,
        monthly_payment_usd: 250,
        representative_example: { ...EXAMPLE, monthly_payment_usd: 250 },
      },
      RANGES,
      [
        'representative_example dropped: its monthly_payment_usd',
        'monthly_payment_usd dropped: a monthly payment is shown only',
      ],
    ],
    [
      'an example of an amount the offer does not lend',
      { ...RANGES, representative_example: { ...EXAMPLE, amount_usd: 50_000, monthly_payment_usd: 1269.4 } },
      RANGES,
      ["representative_example dropped: its amount_usd is outside the offer's amount_usd range"],
    ],
    [
      'an example at an APR the offer does not quote',
      { ...RANGES, representative_example: { ...EXAMPLE, apr_percent: 9.99, monthly_payment_usd: 254.9 } },
      RANGES,
      ["representative_example dropped: its apr_percent is outside the offer's apr_percent range"],
    ],
    [
      'a payment other than the example',
      { ...RANGES, monthly_payment_usd: 266.87, representative_example: EXAMPLE },
      { ...RANGES, representative_example: EXAMPLE },
      ["monthly_payment_usd dropped: it is not the representative_example's monthly_payment_usd"],
    ],
  ])('drops %s, keeping the rest', (_name, terms, kept, said) => {
    const trimmed = trimLoanTerms(terms)
    expect(trimmed.terms).toEqual(kept)
    expect(trimmed.dropped).toHaveLength(said.length)
    said.forEach((part, i) => {
      expect(trimmed.dropped[i]).toContain(part)
      expect(trimmed.dropped[i]).toContain('offers[].loan_terms.')
    })
  })
})

describe('examplePaymentBand', () => {
  it('allows the payments of an APR 1/8 of a point either side, and a cent', () => {
    const { low, high } = examplePaymentBand(EXAMPLE)
    expect(low).toBeCloseTo(303.83, 2)
    expect(high).toBeCloseTo(305.48, 2)
  })
})
