/**
 * Each bid's outcome, bid rank and gap as the auction settles them (docs/decisions/0112-offer-outcomes.md),
 * under both winner policies.
 */
import { describe, expect, it } from 'vitest'
import { type Bid, runAuction, type WinnerPolicy } from '../../../src/marketplace/auction/auction.ts'
import { offerOutcomes } from '../../../src/marketplace/auction/outcomes.ts'

const bid = (offerId: string, partnerId: string, rate: number, productType = 'installment_loan'): Bid => ({
  offerId,
  partnerId,
  position: 0,
  rate,
  productType,
  recommendationScore: rate,
})

function settle(bids: Bid[], policy: WinnerPolicy) {
  const byId = Object.fromEntries(offerOutcomes(bids, runAuction(bids, policy)).map((o) => [o.offerId, o]))
  return Object.fromEntries(bids.map((b) => [b.offerId, byId[b.offerId]]))
}

describe('offerOutcomes', () => {
  it.each(['phase1', 'phase2'] as const)(
    '%s: 14.50 against another partner’s 16.67 of the same type is outbid, rank 2, 217 cents behind',
    (policy) => {
      const out = settle([bid('a', 'quick', 14.5), bid('b', 'steady', 16.67)], policy)
      expect(out.a).toEqual({ offerId: 'a', outcome: 'outbid', bidRank: 2, gapCents: 217 })
      expect(out.b).toEqual({ offerId: 'b', outcome: 'won', bidRank: 1, gapCents: 0 })
    },
  )

  it("a partner's offer beaten by its own other offer of the type is lost_to_own_offer", () => {
    const out = settle([bid('a', 'quick', 14.5), bid('a2', 'quick', 12), bid('b', 'steady', 11)], 'phase2')
    expect(out.a2).toEqual({ offerId: 'a2', outcome: 'lost_to_own_offer', bidRank: 2, gapCents: 250 })
    expect(out.b).toEqual({ offerId: 'b', outcome: 'outbid', bidRank: 3, gapCents: 350 })
  })

  it('phase 1 removes a whole product type below the lead’s top bid: ruled_out_by_phase, no gap; phase 2 shows it', () => {
    const bids = [bid('a', 'quick', 11, 'debt_relief'), bid('b', 'steady', 16.67)]
    expect(settle(bids, 'phase1').a).toEqual({
      offerId: 'a',
      outcome: 'ruled_out_by_phase',
      bidRank: 1,
      gapCents: null,
    })
    expect(settle(bids, 'phase2').a).toEqual({ offerId: 'a', outcome: 'won', bidRank: 1, gapCents: 0 })
  })

  it('equal bids share a bid rank; the one that loses on score is outbid with a gap of 0', () => {
    const bids = [bid('a', 'quick', 15), { ...bid('b', 'steady', 15), recommendationScore: 30 }]
    const out = settle(bids, 'phase2')
    expect(out.a).toEqual({ offerId: 'a', outcome: 'outbid', bidRank: 1, gapCents: 0 })
    expect(out.b).toEqual({ offerId: 'b', outcome: 'won', bidRank: 1, gapCents: 0 })
  })

  it('no bids, no outcomes', () => {
    expect(offerOutcomes([], [])).toEqual([])
  })
})
