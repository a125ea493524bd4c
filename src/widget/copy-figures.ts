/**
 * @module Whether a line of an offer's copy carries a price or rate figure ("$39/mo", "save up to 15%",
 * "$300 a year"). Such a line is never clamped and never waits behind "More details": the number is what
 * a visitor compares, and a clamp must not cut it at any width (OfferCard.tsx). Read from the text, not
 * measured, so the server and the browser render the same card.
 */

/** A currency sign before a digit, a percentage, or an amount per period (the e2e probes read the source). */
export const FIGURE_SOURCE = String.raw`[$€£]\s?\d|\d\s?%|\d\s?(?:\/|per |a )(?:mo|month|yr|year)\b`
const FIGURE = new RegExp(FIGURE_SOURCE, 'i')

export function carriesFigure(text: string): boolean {
  return FIGURE.test(text)
}
