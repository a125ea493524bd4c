/**
 * @module Who an offer comes from. An offer of the offer search API names its carrier, never the partner
 * (an agency, a comparison partner) that quoted it; the widget knows a partner's offers only by when they
 * appeared (seen-partners.ts). This puts that on each offer: the partner to name on the card ("Quote via
 * …") when it is not the carrier itself, and the disclaimers the card points to, so two cards of one
 * carrier from two agencies can be told apart and each licence line belongs to a card
 * (docs/decisions/0109-offer-sources.md).
 */
import type { DisplayOffer } from './display-rules.ts'
import type { Disclaimer, SeenPartner } from './seen-partners.ts'

/** Names compared as a visitor reads them: "BluePeak" is "BluePeak Insurance", case and punctuation aside. */
const plain = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** Whether a partner's brand is the carrier's own name (the carrier quoting directly). */
export function isSameCompany(brand: string, carrier: string): boolean {
  const a = plain(brand)
  const b = plain(carrier)
  return a !== '' && b !== '' && (a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `))
}

/**
 * Each offer with `quotedVia` and `disclaimerPartners` filled in; an offer with neither is returned as it
 * was (the same object, so its card does not render again).
 */
export function withSources(
  offers: readonly DisplayOffer[],
  partners: readonly SeenPartner[],
  disclaimers: readonly Disclaimer[],
): DisplayOffer[] {
  return offers.map((offer) => {
    const credited = partners.filter((partner) => partner.offerUuids.includes(offer.uuid))
    // When the carrier itself is among those that may have quoted it, nobody else is named.
    const direct = credited.some((partner) => isSameCompany(partner.brandName, offer.carrierName))
    const quotedVia = direct
      ? []
      : [...new Set(credited.map((partner) => partner.brandName).filter((name) => name !== ''))]
    const disclaimerPartners = disclaimers
      .filter((disclaimer) => disclaimer.offerUuids.includes(offer.uuid))
      .map((disclaimer) => disclaimer.partnerUuid)
    if (quotedVia.length === 0 && disclaimerPartners.length === 0) return offer
    return { ...offer, quotedVia, disclaimerPartners }
  })
}
