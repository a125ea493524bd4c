/**
 * @module The partner's `loan_terms` (src/contract/loan-terms.ts) as a table: what passes, and for each way
 * of getting it wrong, the field the message names and the fix it says. Also the reply schema's rule that
 * terms never fail a reply, and `toLoanTerms`'s names.
 */
import { describe, expect, it } from 'vitest'
import { toFieldIssues } from '../../src/contract/common.ts'
import { LOAN_TERM_FIELDS, partnerLoanTermsSchema, toLoanTerms } from '../../src/contract/loan-terms.ts'
import { partnerReplySchema } from '../../src/contract/partner.ts'

const FIGURES = {
  apr_percent: { min: 8.99, max: 24.99 },
  amount_usd: { min: 5_000, max: 15_000 },
  term_months: { min: 24, max: 60 },
  monthly_payment_usd: 207.54,
  origination_fee_percent: { min: 0, max: 5 },
}
const FULL = {
  ...FIGURES,
  offer_kind: 'pre_qualified',
  secured: { by: 'vehicle' },
  representative_example: {
    amount_usd: 10_000,
    apr_percent: 8.99,
    term_months: 60,
    monthly_payment_usd: 207.54,
  },
}

function reasons(input: unknown): string[] {
  const parsed = partnerLoanTermsSchema.safeParse(input)
  return parsed.success ? [] : toFieldIssues(parsed.error).map((issue) => issue.reason)
}

describe('partnerLoanTermsSchema', () => {
  it.each([
    ['every figure', FULL],
    ['one figure', { apr_percent: { min: 9.5, max: 9.5 } }],
    ['a single value as min === max', { term_months: { min: 36, max: 36 } }],
    ['the bounds themselves', { apr_percent: { min: 1, max: 36 }, term_months: { min: 3, max: 144 } }],
    ['the amount bounds', { amount_usd: { min: 100, max: 100_000 } }],
    ['the fee bounds', { origination_fee_percent: { min: 0, max: 12 } }],
    ['the payment alone', { monthly_payment_usd: 1 }],
    ['no fee', { origination_fee_percent: { min: 0, max: 0 } }],
    ['the designation alone', { offer_kind: 'advertised' }],
    ['each designation', { offer_kind: 'pre_approved', apr_percent: { min: 5, max: 9 } }],
    ['a secured loan', { secured: { by: 'home' }, apr_percent: { min: 5, max: 9 } }],
  ])('accepts %s', (_name, terms) => {
    expect(reasons(terms)).toEqual([])
  })

  it.each<[string, unknown, string]>([
    ['min > max', { apr_percent: { min: 30, max: 10 } }, 'apr_percent.min must not be greater than'],
    ['an unknown key (a misspelt figure)', { apr: { min: 5, max: 9 } }, 'any of apr_percent, amount_usd'],
    ['an unknown key in a range', { term_months: { min: 24, max: 60, typical: 36 } }, '{ "min": number'],
    ['an empty object', {}, 'must carry at least one figure or offer_kind, or be left out'],
    ['a range as a number', { amount_usd: 10_000 }, 'use the same value twice for one figure'],
    ['a figure as a string', { apr_percent: { min: '5', max: 9 } }, 'apr_percent.min must be a number'],
    ['an APR over 36', { apr_percent: { min: 5, max: 99.9 } }, 'apr_percent.max must be at most 36'],
    [
      'an APR as a fraction',
      { apr_percent: { min: 0.0799, max: 0.3599 } },
      'apr_percent.min must be at least 1',
    ],
    ['a negative fee', { origination_fee_percent: { min: -1, max: 5 } }, 'must be at least 0'],
    ['a fee of 100 %', { origination_fee_percent: { min: 100, max: 100 } }, 'must be at most 12'],
    ['an amount of 1', { amount_usd: { min: 1, max: 5_000 } }, 'amount_usd.min must be at least 100'],
    [
      'an amount of ten million',
      { amount_usd: { min: 100, max: 1e7 } },
      'amount_usd.max must be at most 100000',
    ],
    ['part months', { term_months: { min: 12.5, max: 60 } }, 'term_months.min must be a whole number'],
    ['a term of one month', { term_months: { min: 1, max: 12 } }, 'term_months.min must be at least 3'],
    ['a term past 12 years', { term_months: { min: 12, max: 145 } }, 'term_months.max must be at most 144'],
    [
      'a payment past the bound',
      { monthly_payment_usd: 40_001 },
      'monthly_payment_usd must be at most 40000',
    ],
    ['an unknown designation', { offer_kind: 'guaranteed' }, 'offer_kind must be one of pre_qualified'],
    ['secured as text', { secured: 'by your car' }, 'secured must be { "by": "vehicle"'],
    ['secured by something unknown', { secured: { by: 'boat' } }, 'secured.by must be one of vehicle, home'],
    [
      'an example without its term',
      { representative_example: { amount_usd: 10_000, apr_percent: 9, monthly_payment_usd: 207 } },
      'representative_example.term_months must be a whole number',
    ],
    [
      'an example out of bounds',
      {
        representative_example: {
          amount_usd: 1e6,
          apr_percent: 9,
          term_months: 60,
          monthly_payment_usd: 207,
        },
      },
      'representative_example.amount_usd must be at most 100000',
    ],
    ['a payment of 0', { monthly_payment_usd: 0 }, 'monthly_payment_usd must be at least 1'],
    ['a payment as a range', { monthly_payment_usd: { min: 1, max: 2 } }, 'monthly_payment_usd must be'],
    ['not an object', 'APR 5-9%', 'must be an object with any of'],
    ['an array', [FULL], 'must be an object with any of'],
    ['null', null, 'must be an object with any of'],
    ['infinity', { monthly_payment_usd: Number.POSITIVE_INFINITY }, 'monthly_payment_usd must be'],
  ])('refuses %s, naming the field and the fix', (_name, terms, message) => {
    const found = reasons(terms)
    expect(found.length).toBeGreaterThan(0)
    expect(found.join('\n')).toContain(message)
    // Every message names the field as a partner writes it.
    for (const reason of found) expect(reason).toContain('offers[].loan_terms')
  })

  it('has one bound for each figure it parses', () => {
    expect(Object.keys(LOAN_TERM_FIELDS).sort()).toEqual(Object.keys(FIGURES).sort())
  })
})

describe('loan_terms in the partner reply', () => {
  const reply = (loanTerms: unknown) => ({
    status: 'approved',
    lead_id: 'p-1',
    offers: [{ rate: 5, click_url: 'https://lender.example.com/a', loan_terms: loanTerms }],
  })

  it.each([
    ['good terms', FULL],
    ['malformed terms', { apr: 'low' }],
    ['a string', 'APR from 5%'],
  ])('never fails the reply (%s): the marketplace judges them offer by offer', (_name, terms) => {
    expect(partnerReplySchema.safeParse(reply(terms)).success).toBe(true)
  })
})

describe('toLoanTerms', () => {
  it("gives the rate table's names, copying each range", () => {
    const terms = partnerLoanTermsSchema.parse(FULL)
    const mapped = toLoanTerms(terms)
    expect(mapped).toEqual({
      aprPercent: { min: 8.99, max: 24.99 },
      amountUsd: { min: 5_000, max: 15_000 },
      termMonths: { min: 24, max: 60 },
      monthlyPaymentUsd: 207.54,
      originationFeePercent: { min: 0, max: 5 },
      offerKind: 'pre_qualified',
      secured: { by: 'vehicle' },
      representativeExample: {
        amountUsd: 10_000,
        aprPercent: 8.99,
        termMonths: 60,
        monthlyPaymentUsd: 207.54,
      },
    })
    expect(mapped.aprPercent).not.toBe(terms.apr_percent)
  })

  it('leaves out what the partner left out', () => {
    expect(toLoanTerms(partnerLoanTermsSchema.parse({ apr_percent: { min: 7, max: 7 } }))).toEqual({
      aprPercent: { min: 7, max: 7 },
    })
  })
})
