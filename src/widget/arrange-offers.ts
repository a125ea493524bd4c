/**
 * @module Which offers are on screen and in what order. A card once on screen keeps its place until the
 * visitor acts: a later arrival never pushes it out of view (behind "Show N more") nor out of the list.
 * A worse-ranked arrival is appended. A better-ranked one is inserted at its rank, the cards below
 * sliding down (layout-flip.ts), only when that pushes no card on screen past the visible places and the
 * visitor is not pointing, touching or focused inside the widget and has not asked for reduced motion;
 * otherwise it waits behind the "N new offers" control, which puts the whole list in rank order.
 */
import type { DisplayOffer } from './display-rules.ts'

export interface Arranged {
  /** Offers in display order; the first `places` are on screen. */
  shown: DisplayOffer[]
  /** Arrivals held back because placing them would move a card on screen out of view or under the visitor. */
  held: number
}

export interface ArrangeOptions {
  /** How many cards are on screen (the rest wait behind "Show N more"). */
  places: number
  /** Nothing may move: the visitor is inside the widget, or prefers reduced motion. */
  still: boolean
}

/**
 * `offers` in rank order; `onScreen` the uuids on screen at the last render, in their order (empty before
 * the first card, or after the visitor asked for rank order: everything then goes in rank order).
 */
export function arrangeOffers(
  offers: readonly DisplayOffer[],
  onScreen: readonly string[],
  { places, still }: ArrangeOptions,
): Arranged {
  const byUuid = new Map(offers.map((offer) => [offer.uuid, offer]))
  const shown = onScreen.flatMap((uuid) => byUuid.get(uuid) ?? [])
  if (shown.length === 0) return { shown: [...offers], held: 0 }
  const kept = new Set(shown.map((offer) => offer.uuid))
  let held = 0
  for (const offer of offers) {
    if (kept.has(offer.uuid)) continue
    const before = shown.findIndex((other) => other.rank > offer.rank)
    if (before === -1) {
      shown.push(offer)
      continue
    }
    // Inserting moves every card from `before` down one place: allowed only if the last card on screen
    // still has a place on screen afterwards.
    const lastOnScreen = lastIndexWhere(shown, (other) => kept.has(other.uuid))
    if (!still && lastOnScreen + 1 < places) shown.splice(before, 0, offer)
    else held++
  }
  return { shown, held }
}

function lastIndexWhere<T>(list: readonly T[], test: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i] as T)) return i
  return -1
}
