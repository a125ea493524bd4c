/**
 * @module A winning partner offer in the widget's Offer shape (seed 000), so the same widget renders it.
 * Partner fields fill the institution and copy; the registry's display defaults fill what a reply leaves
 * out. Both links are our click route: the partner's `click_url` stays on the server until the click.
 */
import type { Offer } from '../../contract/offer-search.ts'
import type { StoredOffer } from '../../ledger/index.ts'
import { humanize, type PartnerDisplay } from '../registry/partner-registry.ts'

export function toWidgetOffer(offer: StoredOffer, display: PartnerDisplay, clickUrl: string): Offer {
  const productType = offer.productType
  const institution = offer.displayName ?? offer.name ?? display.name
  return {
    uuid: offer.id,
    version: 1,
    rank: offer.rank ?? 1,
    recommendationScore: offer.recommendationScore,
    headline: offer.offerDetails ?? (display.copy || institution),
    descriptionPoints: [],
    productType,
    productDisplayName:
      productType === display.productType ? display.productDisplayName : humanize(productType),
    status: 'active',
    // Every displayed offer is paid for by its partner (seed 001: "on click or on conversion").
    isMonetized: true,
    url: clickUrl,
    unmonetizedUrl: clickUrl,
    // No pixels: the ledger records an offer as displayed when the auction settles.
    impressionTrackingPixelUrls: [],
    financialInstitutionUuid: offer.partnerId,
    financialInstitutionDisplayName: institution,
    financialInstitutionImageUrl: offer.logoSrc ?? display.logoUrl,
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.createdAt.toISOString(),
  }
}
