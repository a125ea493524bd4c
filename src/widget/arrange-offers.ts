/**
 * @module Which offers are on screen and in what order
 * (docs/decisions/0047-rank-order-still-list.md). When nothing holds the list, it is every offer in ascending `rank`: the first `places` are
 * on screen, the rest behind "Show N more", so the search ends in rank order with no tap. While the
 * visitor holds it (a press, or within 600 ms of one: interaction-hold.ts), no card on screen moves: they
 * keep their places, an arrival that ranks after all of them takes the next place, and any other waits
 * until the hold ends.
 */
import type { DisplayOffer } from './display-rules.ts'

export interface Arranged {
  /** Offers in display order; the first `places` are on screen. */
  shown: DisplayOffer[]
  /** Arrivals waiting for the hold to end, because placing them would move a card on screen. */
  waiting: number
}

/**
 * `offers` in rank order; `onScreen` the uuids on screen at the last render, in their order (their
 * offer objects are taken from `offers`, so an update to an offer still shows).
 */
export function arrangeOffers(
  offers: readonly DisplayOffer[],
  onScreen: readonly string[],
  held: boolean,
): Arranged {
  if (!held || onScreen.length === 0) return { shown: [...offers], waiting: 0 }
  const index = new Map(offers.map((offer, i) => [offer.uuid, i]))
  // A card whose offer left the table (no longer active) goes: only active offers are shown.
  const kept = onScreen.filter((uuid) => index.has(uuid))
  const last = Math.max(-1, ...kept.map((uuid) => index.get(uuid) ?? -1))
  const keptSet = new Set(kept)
  const shown = [
    ...kept.map((uuid) => offers[index.get(uuid) ?? 0] as DisplayOffer),
    ...offers.slice(last + 1).filter((offer) => !keptSet.has(offer.uuid)),
  ]
  return { shown, waiting: offers.length - shown.length }
}
