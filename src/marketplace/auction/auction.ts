/**
 * @module The auction, pure: which bids are eligible under the winner policy, then one winner per product
 * sub-type by `recommendationScore`, ranked. docs/partner-interface.md: "Phase 1: a partner's offer is displayed if it is the
 * highest bid returned for the lead. Phase 2: it is displayed if it is the highest bid for its product
 * type." and "for each product sub-type, the one offer with the highest `recommendationScore`".
 */

export type WinnerPolicy = 'phase1' | 'phase2'

export interface Bid {
  offerId: string
  partnerId: string
  /** Index of the offer in its partner's reply. */
  position: number
  rate: number
  /** The product sub-type: the offer's `product_type`, or the partner's registered default. */
  productType: string
  recommendationScore: number
}

export interface Winner<B extends Bid = Bid> {
  bid: B
  /** 1 is shown first. */
  rank: number
}

/** Bids the policy lets compete: ties at the highest bid all stay in. */
export function eligibleBids<B extends Bid>(bids: readonly B[], policy: WinnerPolicy): B[] {
  if (policy === 'phase1') {
    const top = Math.max(...bids.map((b) => b.rate))
    return bids.filter((b) => b.rate === top)
  }
  const topByType = new Map<string, number>()
  for (const b of bids)
    topByType.set(b.productType, Math.max(topByType.get(b.productType) ?? -Infinity, b.rate))
  return bids.filter((b) => b.rate === topByType.get(b.productType))
}

/**
 * The deterministic order of the auction: higher score, then higher bid, then partner id, then the
 * offer's position in its reply, then offer id; so the same bids always give the same winners.
 */
export function compareBids(a: Bid, b: Bid): number {
  return (
    b.recommendationScore - a.recommendationScore ||
    b.rate - a.rate ||
    cmp(a.partnerId, b.partnerId) ||
    a.position - b.position ||
    cmp(a.offerId, b.offerId)
  )
}

/** Winners: one per product sub-type among the eligible bids, ranked by the same order. */
export function runAuction<B extends Bid>(bids: readonly B[], policy: WinnerPolicy): Array<Winner<B>> {
  const best = new Map<string, B>()
  for (const bid of eligibleBids(bids, policy)) {
    const current = best.get(bid.productType)
    if (current === undefined || compareBids(bid, current) < 0) best.set(bid.productType, bid)
  }
  return [...best.values()].sort(compareBids).map((bid, index) => ({ bid, rank: index + 1 }))
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
