/**
 * @module A partner's `offer_details` as headline and bullets: where it breaks and where it does not.
 */
import { describe, expect, it } from 'vitest'
import { offerCopy } from '../../../src/marketplace/rate-table/offer-copy.ts'

describe('offerCopy', () => {
  it.each([
    [
      'Borrow $12,000 over 24 to 60 months. Fixed rate. No prepayment penalty.',
      'Borrow $12,000 over 24 to 60 months',
      ['Fixed rate', 'No prepayment penalty'],
    ],
    ['One sentence only', 'One sentence only', []],
    ['APR from 7.99% e.g. on $1,000.50 loans.', 'APR from 7.99% e.g. on $1,000.50 loans', []],
    ['Up to $40,000\n• 36 months\n• No fees', 'Up to $40,000', ['36 months', 'No fees']],
    ['Fast funding; 2 days. $0 origination fee!', 'Fast funding', ['2 days', '$0 origination fee!']],
    ['A. B. C. D. E. F. G. H.', 'A', ['B', 'C', 'D', 'E', 'F']],
  ])('%j', (details, headline, points) => {
    expect(offerCopy(details)).toEqual({ headline, descriptionPoints: points })
  })
})
