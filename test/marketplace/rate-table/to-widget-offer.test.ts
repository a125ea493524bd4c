/**
 * @module A stored offer's loan terms on the widget's offer: `loanTerms` in the rate table's names when the
 * partner sent terms that passed the contract, absent otherwise (so the card shows as it did), and absent
 * for a row whose stored terms no longer pass (read again like the logo).
 */
import { describe, expect, it } from 'vitest'
import { offerSchema } from '../../../src/contract/rate-table.ts'
import type { StoredOffer } from '../../../src/ledger/index.ts'
import { toWidgetOffer } from '../../../src/marketplace/rate-table/to-widget-offer.ts'

const DISPLAY = {
  name: 'Registry Lender',
  logoUrl: 'https://logos.example.com/r.svg',
  productType: 'installment_loan',
  productDisplayName: 'Installment loan',
  copy: 'A loan.',
  disclaimer: 'NMLS #1.',
}
const LINKS = {
  url: 'https://bff.example.com/api/clicks/t',
  unmonetizedUrl: 'https://bff.example.com/api/clicks/t?preview=1',
  impressionUrl: 'https://bff.example.com/api/impressions/t',
}

function stored(loanTerms: unknown): StoredOffer {
  return {
    id: '6f1c2a57-5d0e-4b8f-9a5e-0a1b2c3d4e5f',
    leadId: '7f1c2a57-5d0e-4b8f-9a5e-0a1b2c3d4e5f',
    partnerId: 'alpha',
    position: 0,
    rate: 12,
    productType: 'installment_loan',
    recommendationScore: 12,
    clickUrl: 'https://alpha.example/click',
    name: 'Alpha',
    displayName: 'Alpha Loans',
    offerDetails: 'Borrow $12,000 over 24 to 60 months. Fixed rate.',
    logoSrc: null,
    loanTerms,
    displayed: true,
    rank: 1,
    createdAt: new Date('2026-03-02T10:00:00.000Z'),
  }
}

describe('toWidgetOffer and loan terms', () => {
  it("puts the partner's terms on the offer in the rate table's names, which the widget's schema reads", () => {
    const offer = toWidgetOffer(
      stored({
        apr_percent: { min: 8.99, max: 24.99 },
        amount_usd: { min: 9_600, max: 14_400 },
        term_months: { min: 24, max: 60 },
        monthly_payment_usd: 249.04,
        origination_fee_percent: { min: 1, max: 5 },
        offer_kind: 'pre_approved',
        secured: { by: 'savings' },
        representative_example: {
          amount_usd: 12_000,
          apr_percent: 8.99,
          term_months: 60,
          monthly_payment_usd: 249.04,
        },
      }),
      DISPLAY,
      LINKS,
    )
    const expected = {
      aprPercent: { min: 8.99, max: 24.99 },
      amountUsd: { min: 9_600, max: 14_400 },
      termMonths: { min: 24, max: 60 },
      monthlyPaymentUsd: 249.04,
      originationFeePercent: { min: 1, max: 5 },
      offerKind: 'pre_approved',
      secured: { by: 'savings' },
      representativeExample: {
        amountUsd: 12_000,
        aprPercent: 8.99,
        termMonths: 60,
        monthlyPaymentUsd: 249.04,
      },
    }
    expect(offer.loanTerms).toEqual(expected)
    expect(offerSchema.parse(offer).loanTerms).toEqual(expected)
  })

  it('carries only the figures the partner sent', () => {
    const offer = toWidgetOffer(stored({ apr_percent: { min: 6, max: 6 } }), DISPLAY, LINKS)
    expect(offer.loanTerms).toEqual({ aprPercent: { min: 6, max: 6 } })
  })

  it('leaves loanTerms out when the offer has none, so the card shows as it did', () => {
    const offer = toWidgetOffer(stored(null), DISPLAY, LINKS)
    expect('loanTerms' in offer).toBe(false)
    expect(offer.headline).toBe('Borrow $12,000 over 24 to 60 months')
  })

  it('leaves out stored terms that no longer pass the contract', () => {
    const offer = toWidgetOffer(stored({ apr_percent: { min: 30, max: 10 } }), DISPLAY, LINKS)
    expect('loanTerms' in offer).toBe(false)
  })

  it('leaves out a stored payment without its example, and terms of a payment alone', () => {
    const withRate = toWidgetOffer(
      stored({ apr_percent: { min: 6, max: 9 }, monthly_payment_usd: 249.04 }),
      DISPLAY,
      LINKS,
    )
    expect(withRate.loanTerms).toEqual({ aprPercent: { min: 6, max: 9 } })
    expect('loanTerms' in toWidgetOffer(stored({ monthly_payment_usd: 249.04 }), DISPLAY, LINKS)).toBe(false)
  })

  it('leaves out stored terms past the bounds a lender could offer (a 100 % fee, ten million dollars)', () => {
    const fee = toWidgetOffer(stored({ origination_fee_percent: { min: 100, max: 100 } }), DISPLAY, LINKS)
    const amount = toWidgetOffer(stored({ amount_usd: { min: 1, max: 10_000_000 } }), DISPLAY, LINKS)
    expect('loanTerms' in fee || 'loanTerms' in amount).toBe(false)
  })
})
