/**
 * @module Why each offer of a lead won or lost, decided once, when the auction settles, and stored with
 * the offer (docs/decisions/0112-offer-outcomes.md): its outcome, its bid rank within its product type and
 * its gap to that type's winning bid. Reports read these columns and never re-run the auction, so a report
 * of last year says what the rules of last year decided.
 */
import type { OfferSettlement } from '../../ledger/index.ts'
import type { Bid, Winner } from './auction.ts'

/**
 * One offer's outcome. Its product type has a winner: `won`, else `lost_to_own_offer` when the winner is the
 * same partner's, else `outbid` (a higher bid or score of another partner took the type; whichever rule
 * also applied, the offer would have lost its type anyway). Its type has no winner: only the phase rule
 * removes a whole type (phase 1 shows the lead's highest bid alone), so `ruled_out_by_phase`.
 */
function outcomeOf(bid: Bid, winner: Bid | undefined): OfferSettlement['outcome'] {
  if (winner === undefined) return 'ruled_out_by_phase'
  if (winner.offerId === bid.offerId) return 'won'
  return winner.partnerId === bid.partnerId ? 'lost_to_own_offer' : 'outbid'
}

/** The settle of a lead: its winners by rank, and every bid's outcome. */
export function settlement(bids: readonly Bid[], winners: readonly Winner[]) {
  return {
    winners: winners.map((w) => ({ offerId: w.bid.offerId, rank: w.rank })),
    outcomes: offerOutcomes(bids, winners),
  }
}

/**
 * Every bid's settlement. Bid rank: 1 + the number of bids of its type that are strictly higher (equal
 * bids share a rank). Gap: the winning bid minus this one in whole cents, 0 for the winner, null when its
 * type has no winner.
 */
export function offerOutcomes(bids: readonly Bid[], winners: readonly Winner[]): OfferSettlement[] {
  const winnerOf = new Map(winners.map((w) => [w.bid.productType, w.bid]))
  return bids.map((bid) => {
    const winner = winnerOf.get(bid.productType)
    const higher = bids.filter((b) => b.productType === bid.productType && b.rate > bid.rate).length
    return {
      offerId: bid.offerId,
      outcome: outcomeOf(bid, winner),
      bidRank: higher + 1,
      // Cents, rounded once: 16.67 - 14.5 is 2.1700000000000017 in floating point.
      gapCents: winner === undefined ? null : Math.round((winner.rate - bid.rate) * 100),
    }
  })
}
