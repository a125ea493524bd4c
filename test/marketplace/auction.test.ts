import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Bid, compareBids, eligibleBids, runAuction } from '../../src/marketplace/auction/auction.ts'
import { scoreOffer } from '../../src/marketplace/auction/score.ts'

let n = 0
function bid(partnerId: string, rate: number, productType: string, score = rate, position = 0): Bid {
  n++
  return {
    offerId: `offer-${String(n).padStart(4, '0')}`,
    partnerId,
    position,
    rate,
    productType,
    recommendationScore: score,
  }
}

const bidArb = fc.record({
  offerId: fc.uuid(),
  partnerId: fc.constantFrom('a', 'b', 'c', 'd'),
  position: fc.nat({ max: 3 }),
  rate: fc.constantFrom(0, 1, 2.5, 5, 10, 12.75),
  productType: fc.constantFrom('installment_loan', 'debt_relief', 'credit_card'),
  recommendationScore: fc.constantFrom(0, 1, 3, 7.5, 20),
})
const bidsArb = fc.uniqueArray(bidArb, { selector: (b) => b.offerId, maxLength: 25 })

describe('scoreOffer', () => {
  it('is the rate times the partner score factor', () => {
    expect(scoreOffer({ rate: 12.5 }, { scoreFactor: 0.8 })).toBe(10)
  })
})

describe('phase1: "displayed if it is the highest bid returned for the lead"', () => {
  it('shows only the highest bid of the lead, even when another product type has its own bids', () => {
    const top = bid('a', 20, 'installment_loan')
    const other = bid('b', 15, 'debt_relief')
    const winners = runAuction([top, other, bid('c', 10, 'installment_loan')], 'phase1')
    expect(winners.map((w) => w.bid.offerId)).toEqual([top.offerId])
    expect(winners.map((w) => w.bid.offerId)).not.toContain(other.offerId)
  })

  it('keeps every bid tied at the top, one per product sub-type', () => {
    const loan = bid('a', 20, 'installment_loan', 20)
    const relief = bid('b', 20, 'debt_relief', 30)
    expect(
      runAuction([loan, relief, bid('c', 1, 'credit_card')], 'phase1').map((w) => [w.bid.offerId, w.rank]),
    ).toEqual([
      [relief.offerId, 1],
      [loan.offerId, 2],
    ])
  })
})

describe('phase2: "displayed if it is the highest bid for its product type"', () => {
  it('shows the highest bid of each product type', () => {
    const loan = bid('a', 20, 'installment_loan')
    const relief = bid('b', 15, 'debt_relief')
    const winners = runAuction([loan, relief, bid('c', 10, 'installment_loan')], 'phase2')
    expect(winners.map((w) => w.bid.offerId).sort()).toEqual([loan.offerId, relief.offerId].sort())
  })

  it('a higher score does not beat a higher bid of the same type (the bid rule comes first)', () => {
    const highBid = bid('a', 20, 'installment_loan', 5)
    const highScore = bid('b', 10, 'installment_loan', 50)
    expect(runAuction([highBid, highScore], 'phase2').map((w) => w.bid.offerId)).toEqual([highBid.offerId])
  })
})

describe('one offer per product sub-type, highest recommendationScore, deterministic tie-break', () => {
  it('picks the higher score among tied bids of one type', () => {
    const low = bid('a', 10, 'debt_relief', 8)
    const high = bid('b', 10, 'debt_relief', 9)
    expect(runAuction([low, high], 'phase2').map((w) => w.bid.offerId)).toEqual([high.offerId])
  })

  it('breaks a full tie by partner id, then position in the reply', () => {
    const b0 = bid('b', 10, 'debt_relief', 10, 0)
    const a1 = bid('a', 10, 'debt_relief', 10, 1)
    const a0 = bid('a', 10, 'debt_relief', 10, 0)
    expect(runAuction([b0, a1, a0], 'phase1')[0]?.bid.offerId).toBe(a0.offerId)
  })

  it('has no winner without bids', () => {
    expect(runAuction([], 'phase1')).toEqual([])
    expect(runAuction([], 'phase2')).toEqual([])
  })
})

describe('auction properties', () => {
  const policies = fc.constantFrom('phase1' as const, 'phase2' as const)

  it('at most one winner per product type, ranks 1..n in compareBids order', () => {
    fc.assert(
      fc.property(bidsArb, policies, (bids, policy) => {
        const winners = runAuction(bids, policy)
        const types = winners.map((w) => w.bid.productType)
        expect(new Set(types).size).toBe(types.length)
        expect(winners.map((w) => w.rank)).toEqual(winners.map((_, i) => i + 1))
        for (let i = 1; i < winners.length; i++) {
          expect(
            compareBids(
              (winners[i - 1] as (typeof winners)[number]).bid,
              (winners[i] as (typeof winners)[number]).bid,
            ),
          ).toBeLessThan(0)
        }
      }),
    )
  })

  it('every winner satisfies its policy and has the best score of the eligible bids of its type', () => {
    fc.assert(
      fc.property(bidsArb, policies, (bids, policy) => {
        const eligible = eligibleBids(bids, policy)
        for (const { bid: w } of runAuction(bids, policy)) {
          const rivals = policy === 'phase1' ? bids : bids.filter((b) => b.productType === w.productType)
          expect(w.rate).toBe(Math.max(...rivals.map((b) => b.rate)))
          for (const other of eligible.filter((b) => b.productType === w.productType)) {
            expect(w.recommendationScore).toBeGreaterThanOrEqual(other.recommendationScore)
          }
        }
      }),
    )
  })

  it('phase2 shows exactly one offer for every product type that got a bid; phase1 at least one when any bid', () => {
    fc.assert(
      fc.property(bidsArb, (bids) => {
        expect(runAuction(bids, 'phase2')).toHaveLength(new Set(bids.map((b) => b.productType)).size)
        expect(runAuction(bids, 'phase1').length > 0).toBe(bids.length > 0)
      }),
    )
  })

  it('the result does not depend on the order the replies arrived in', () => {
    fc.assert(
      fc.property(
        bidsArb.chain((bids) =>
          fc.tuple(
            fc.constant(bids),
            fc.shuffledSubarray(bids, { minLength: bids.length, maxLength: bids.length }),
          ),
        ),
        policies,
        ([bids, shuffled], policy) => {
          expect(runAuction(shuffled, policy)).toEqual(runAuction(bids, policy))
        },
      ),
    )
  })
})
