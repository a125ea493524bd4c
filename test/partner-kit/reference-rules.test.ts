/**
 * @module The reference partner's rules: credit bands, ratings, income, states, amounts, age, bids.
 */
import { describe, expect, it } from 'vitest'
import { partnerLoanTermsSchema } from '../../src/contract/loan-terms.ts'
import { trimLoanTerms } from '../../src/contract/loan-terms-example.ts'
import { monthlyPayment } from '../../src/contract/monthly-payment.ts'
import type { Lead } from '../../src/contract/partner.ts'
import {
  ageOn,
  annualIncome,
  creditTier,
  decideLead,
  loanTerms,
  PRODUCT_RULES,
} from '../../src/partner-kit/reference-rules.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'

const NOW = new Date('2026-06-15T12:00:00Z')

function lead(changes: {
  score?: number
  rating?: string
  annual?: number
  monthly?: number
  state?: Lead['personalInformation']['state']
  amount?: number
  dateOfBirth?: string
}): Lead {
  const base = structuredClone(sampleLeads().find((s) => s.id === 'always-available')?.lead) as Lead
  if (changes.rating !== undefined) base.creditInformation = { providedCreditRating: changes.rating }
  if (changes.score !== undefined) base.creditInformation = { providedNumericCreditScore: changes.score }
  if (changes.annual !== undefined || changes.monthly !== undefined) {
    base.financialInformation = {
      ...(changes.annual === undefined ? {} : { annualIncome: changes.annual }),
      ...(changes.monthly === undefined ? {} : { monthlyNetIncome: changes.monthly }),
    }
  }
  if (changes.state) base.personalInformation.state = changes.state
  if (changes.amount !== undefined) base.loanInformation.loanAmount = changes.amount
  if (changes.dateOfBirth) base.personalInformation.dateOfBirth = changes.dateOfBirth
  return base
}

function products(l: Lead): string[] {
  const decision = decideLead(l, NOW)
  return decision.status === 'approved' ? decision.offers.map((o) => o.product_type) : []
}

describe('creditTier', () => {
  it.each([
    [850, 'excellent'],
    [740, 'excellent'],
    [739, 'good'],
    [670, 'good'],
    [669, 'fair'],
    [580, 'fair'],
    [579, 'poor'],
    [300, 'poor'],
  ])('score %i is %s', (score, tier) => {
    expect(creditTier({ providedNumericCreditScore: score })).toBe(tier)
  })

  it('reads ratings case-insensitively, with _ or - for spaces (docs/partner-interface.md: allowed values "not shown")', () => {
    expect(creditTier({ providedCreditRating: 'Excellent' })).toBe('excellent')
    expect(creditTier({ providedCreditRating: 'VERY_GOOD' })).toBe('good')
    expect(creditTier({ providedCreditRating: 'very-poor' })).toBe('poor')
    expect(creditTier({ providedCreditRating: 'stellar' })).toBeUndefined()
  })

  it('rejects a rating it does not price, listing the ones it does', () => {
    const decision = decideLead(lead({ rating: 'stellar' }), NOW)
    expect(decision).toMatchObject({ status: 'rejected' })
    expect(decision.status === 'rejected' && decision.reason).toMatch(/providedCreditRating.*excellent, /)
  })
})

describe('annualIncome', () => {
  it('takes annualIncome when sent, else twelve months of monthlyNetIncome', () => {
    expect(annualIncome({ annualIncome: 50_000, monthlyNetIncome: 1 })).toBe(50_000)
    expect(annualIncome({ monthlyNetIncome: 2_000 })).toBe(24_000)
  })

  it('a monthly income of 2,000 USD reaches the 24,000 USD installment-loan floor; 1,999 does not', () => {
    expect(products(lead({ score: 700, monthly: 2_000 }))).toContain('installment_loan')
    expect(products(lead({ score: 700, monthly: 1_999 }))).not.toContain('installment_loan')
  })
})

describe('decideLead', () => {
  it('offers an installment loan to good credit and debt relief to poor credit', () => {
    expect(products(lead({ score: 700 }))).toEqual(['installment_loan'])
    expect(products(lead({ score: 550, annual: 30_000 }))).toEqual(['debt_relief'])
  })

  it('offers both products to fair credit, so replies exercise several product types', () => {
    expect(products(lead({ score: 620, annual: 40_000, amount: 10_000 }))).toEqual([
      'installment_loan',
      'debt_relief',
    ])
  })

  it('bids by tier', () => {
    const decision = decideLead(lead({ score: 760 }), NOW)
    expect(decision).toEqual({
      status: 'approved',
      offers: [
        {
          product_type: 'installment_loan',
          bid: PRODUCT_RULES.installment_loan.bids.excellent,
          loan_terms: expect.objectContaining({ apr_percent: { min: 7.99, max: 15.99 } }),
        },
      ],
    })
  })

  it('does not offer a product in the states it excludes (NY for loans, PR and VI for debt relief)', () => {
    expect(products(lead({ score: 700, state: 'NY' }))).toEqual([])
    expect(products(lead({ score: 550, annual: 30_000, state: 'PR' }))).toEqual([])
    expect(products(lead({ score: 550, annual: 30_000, state: 'VI' }))).toEqual([])
    expect(products(lead({ score: 700, state: 'DC' }))).toEqual(['installment_loan'])
  })

  it('keeps loanAmount inside the product range when the lead sends one', () => {
    expect(products(lead({ score: 700, amount: 1_000 }))).toEqual(['installment_loan'])
    expect(products(lead({ score: 700, amount: 50_000 }))).toEqual(['installment_loan'])
    expect(products(lead({ score: 700, amount: 999 }))).toEqual([])
    expect(products(lead({ score: 700, amount: 50_001 }))).toEqual([])
  })

  it('rejects applicants under 18, on their birthday they qualify', () => {
    expect(decideLead(lead({ score: 700, dateOfBirth: '2008-06-16' }), NOW)).toEqual({
      status: 'rejected',
      reason: 'applicant must be 18 or older',
    })
    expect(products(lead({ score: 700, dateOfBirth: '2008-06-15' }))).toEqual(['installment_loan'])
    expect(ageOn('2008-06-15', NOW)).toBe(18)
  })

  it('rejects with a reason per product when nothing fits', () => {
    const decision = decideLead(lead({ score: 500, monthly: 450, amount: 90_000 }), NOW)
    expect(decision.status).toBe('rejected')
    expect(decision.status === 'rejected' && decision.reason).toMatch(/installment_loan: .*; debt_relief: /)
  })
})

describe('monthlyPayment', () => {
  it.each([
    // Textbook amortisation values: 10 000 at 6 % over 5 years, 200 000 at 6.5 % over 30 years.
    [10_000, 6, 60, 193.33],
    [200_000, 6.5, 360, 1264.14],
    [12_000, 11.99, 60, 266.87],
    // No interest: the principal split evenly.
    [1_200, 0, 24, 50],
  ])('%s USD at %s percent APR over %s months is %s a month', (principal, apr, months, payment) => {
    expect(monthlyPayment(principal, apr, months)).toBe(payment)
  })
})

describe('loanTerms', () => {
  const loan = PRODUCT_RULES.installment_loan

  it("quotes pre-qualified, the tier's APR and fee, 24-60 months, the asked amount +-20 % and the payment of its example", () => {
    const example = {
      amount_usd: 12_000,
      apr_percent: 24.99,
      term_months: 60,
      monthly_payment_usd: monthlyPayment(12_000, 24.99, 60),
    }
    expect(loanTerms(loan, 'good', 12_000)).toEqual({
      offer_kind: 'pre_qualified',
      apr_percent: { min: 11.99, max: 24.99 },
      amount_usd: { min: 9_600, max: 14_400 },
      term_months: { min: 24, max: 60 },
      monthly_payment_usd: example.monthly_payment_usd,
      origination_fee_percent: { min: 1, max: 5 },
      representative_example: example,
    })
  })

  it('keeps the amount range inside what it lends, and quotes the whole range with the middle as example when none was asked', () => {
    expect(loanTerms(loan, 'excellent', 1_000)?.amount_usd).toEqual({ min: 1_000, max: 1_200 })
    expect(loanTerms(loan, 'excellent', 50_000)?.amount_usd).toEqual({ min: 40_000, max: 50_000 })
    const unasked = loanTerms(loan, 'fair', undefined)
    expect(unasked?.amount_usd).toEqual({ min: 1_000, max: 50_000 })
    expect(unasked?.representative_example).toEqual({
      amount_usd: 25_500,
      apr_percent: 35.99,
      term_months: 60,
      monthly_payment_usd: monthlyPayment(25_500, 35.99, 60),
    })
    expect(unasked?.monthly_payment_usd).toBe(unasked?.representative_example?.monthly_payment_usd)
  })

  it('says an auto loan is secured by the vehicle, any other purpose nothing', () => {
    expect(loanTerms(loan, 'good', 12_000, 'auto')?.secured).toEqual({ by: 'vehicle' })
    expect(loanTerms(loan, 'good', 12_000, 'debt_consolidation')).not.toHaveProperty('secured')
  })

  it.each(['excellent', 'good', 'fair'] as const)(
    'quotes %s terms the contract keeps whole: the example consistent and inside the ranges',
    (tier) => {
      for (const asked of [1_000, 12_000, 50_000, undefined]) {
        const terms = partnerLoanTermsSchema.parse(loanTerms(loan, tier, asked, 'auto'))
        expect(trimLoanTerms(terms)).toEqual({ terms, dropped: [] })
      }
    },
  )

  it('quotes nothing for debt relief (no APR) or a tier without a price', () => {
    expect(loanTerms(PRODUCT_RULES.debt_relief, 'fair', 12_000)).toBeUndefined()
    expect(loanTerms(loan, 'poor', 12_000)).toBeUndefined()
  })
})
