/**
 * @module Which offers are on screen and in what order. While the visitor's pointer or focus is inside the
 * widget, nothing is inserted above a card already shown (a tap must land on the offer it aimed at): a
 * better-ranked arrival is held and counted for the "1 new offer" control, a worse-ranked one is appended.
 */
import type { DisplayOffer } from './display-rules.ts'

export interface Arranged {
  shown: DisplayOffer[]
  /** Arrivals held back because they rank above a card on screen. */
  held: number
}

/**
 * `offers` in rank order; `onScreen` the uuids shown last time, in their order, or `undefined` when the
 * visitor is not interacting (rank order, everything placed).
 */
export function arrangeOffers(
  offers: readonly DisplayOffer[],
  onScreen: readonly string[] | undefined,
): Arranged {
  if (!onScreen) return { shown: [...offers], held: 0 }
  const byUuid = new Map(offers.map((offer) => [offer.uuid, offer]))
  const shown = onScreen.flatMap((uuid) => byUuid.get(uuid) ?? [])
  const worst = Math.max(...shown.map((offer) => offer.rank))
  let held = 0
  for (const offer of offers) {
    if (onScreen.includes(offer.uuid)) continue
    if (offer.rank >= worst) shown.push(offer)
    else held++
  }
  return { shown, held }
}
