/**
 * @module A partner's `offer_details` as the card's copy
 * (docs/partner-interface.md#presentation-fields): its first sentence is the headline, each further sentence or line a bullet, so the amount and
 * term a partner writes first are what a visitor reads first. Partner text stays text: nothing is parsed
 * out of it but where it breaks.
 */

export interface OfferCopy {
  headline: string
  descriptionPoints: string[]
}

/** Bullets past this many are dropped: the card shows three and a longer list is a paragraph, not points. */
const MAX_POINTS = 5

/**
 * Breaks at a line break or bullet, or after `.`, `!`, `?` or `;` followed by a space and a capital or a
 * digit or `$` (so "e.g. fees" and "$1,000.50" stay whole).
 */
const BREAK = /\s*(?:[\r\n]+|\s[•·]\s)\s*|(?<=[.!?;])\s+(?=[A-Z0-9$])/u

export function offerCopy(offerDetails: string): OfferCopy {
  const parts = offerDetails
    .split(BREAK)
    .map((part) =>
      part
        .replace(/^[•·\-*]\s*/, '')
        .replace(/[.;]$/, '')
        .trim(),
    )
    .filter((part) => part.length > 0)
  const [headline = offerDetails.trim(), ...points] = parts
  return { headline, descriptionPoints: points.slice(0, MAX_POINTS) }
}
