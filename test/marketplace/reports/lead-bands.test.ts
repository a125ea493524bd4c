/**
 * The coarse report dimensions of a lead (docs/decisions/0112-offer-outcomes.md): amount bands at their
 * edges, credit bands from a score or a stated rating, and no free text kept.
 */
import { describe, expect, it } from 'vitest'
import { amountBand, creditBand, loanPurpose } from '../../../src/marketplace/reports/lead-bands.ts'

describe('lead bands', () => {
  it.each([
    [undefined, 'not_given'],
    [1, 'under_1k'],
    [999.99, 'under_1k'],
    [1_000, '1k_5k'],
    [4_999, '1k_5k'],
    [5_000, '5k_10k'],
    [10_000, '10k_25k'],
    [24_999, '10k_25k'],
    [25_000, '25k_50k'],
    [50_000, '50k_plus'],
    [250_000, '50k_plus'],
  ])('amount %s is %s', (amount, band) => {
    expect(amountBand(amount)).toBe(band)
  })

  it.each([
    [{ providedNumericCreditScore: 850 }, 'excellent'],
    [{ providedNumericCreditScore: 740 }, 'excellent'],
    [{ providedNumericCreditScore: 739 }, 'good'],
    [{ providedNumericCreditScore: 670 }, 'good'],
    [{ providedNumericCreditScore: 620 }, 'fair'],
    [{ providedNumericCreditScore: 579 }, 'poor'],
    [{ providedNumericCreditScore: 300 }, 'poor'],
    [{ providedCreditRating: ' Good ' }, 'good'],
    [{ providedCreditRating: 'pretty decent' }, 'other'],
  ])('credit %o is %s', (credit, band) => {
    expect(creditBand(credit)).toBe(band)
  })

  it('keeps a purpose of the interface document, and never free text', () => {
    expect(loanPurpose('home_improvement')).toBe('home_improvement')
    expect(loanPurpose(' Medical ')).toBe('medical')
    expect(loanPurpose('Call Quentina at 202-555-0147')).toBe('other')
  })
})
