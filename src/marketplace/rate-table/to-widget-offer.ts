/**
 * @module A winning partner offer in the widget's Offer shape (docs/offer-search-api.md), so the same widget renders it.
 * Partner fields fill the institution and copy; the registry's display defaults fill what a reply leaves
 * out. Every link is ours: `url` is the counted click route, `unmonetizedUrl` the uncounted one previews
 * follow, and the impression pixel is what counts the offer as displayed. The partner's `click_url` stays
 * on the server until the click. The card names the lender (`display_name`, else `name`, else the
 * registry's name), its copy comes from `offer_details` (headline and bullets) and it carries its
 * partner's disclaimer, and its `loan_terms` as `loanTerms` when it sent terms that passed the contract (a
 * payment only with its representative example; `offerKind`, `secured` and `representativeExample` beside
 * the figures).
 */
import { partnerLoanTermsSchema, toLoanTerms } from '../../contract/loan-terms.ts'
import { trimLoanTerms } from '../../contract/loan-terms-example.ts'
import type { Offer } from '../../contract/offer-search.ts'
import { partnerUrlProblem } from '../../contract/partner.ts'
import type { StoredOffer } from '../../ledger/index.ts'
import type { OfferLinks } from '../clicks/offer-links.ts'
import { humanize, type PartnerDisplay } from '../registry/partner-registry.ts'
import { offerCopy } from './offer-copy.ts'

export function toWidgetOffer(offer: StoredOffer, display: PartnerDisplay, links: OfferLinks): Offer {
  const productType = offer.productType
  // Read again, as the logo is: a row stored under looser bounds must not reach the widget.
  const terms = offer.loanTerms === null ? undefined : partnerLoanTermsSchema.safeParse(offer.loanTerms)
  const shown = terms?.success ? trimLoanTerms(terms.data).terms : {}
  const institution = offer.displayName ?? offer.name ?? display.name
  const copy =
    offer.offerDetails !== null && offer.offerDetails.trim() !== ''
      ? offerCopy(offer.offerDetails)
      : { headline: display.copy || institution, descriptionPoints: [] }
  return {
    uuid: offer.id,
    version: 1,
    rank: offer.rank ?? 1,
    recommendationScore: offer.recommendationScore,
    headline: copy.headline,
    descriptionPoints: copy.descriptionPoints,
    productType,
    productDisplayName:
      productType === display.productType ? display.productDisplayName : humanize(productType),
    status: 'active',
    // Every displayed offer is paid for by its partner (docs/partner-interface.md: "on click or on conversion").
    isMonetized: true,
    url: links.url,
    unmonetizedUrl: links.unmonetizedUrl,
    // Fired by the widget as it fires any offer's pixels (never in preview): a unique impression.
    impressionTrackingPixelUrls: [links.impressionUrl],
    financialInstitutionUuid: offer.partnerId,
    financialInstitutionDisplayName: institution,
    // The contract already refuses any other logo; a row written before that rule must not slip through.
    financialInstitutionImageUrl:
      offer.logoSrc !== null && partnerUrlProblem(offer.logoSrc) === undefined
        ? offer.logoSrc
        : display.logoUrl,
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.createdAt.toISOString(),
    ...(display.disclaimer.trim() === '' ? {} : { disclaimer: display.disclaimer }),
    ...(Object.keys(shown).length > 0 ? { loanTerms: toLoanTerms(shown) } : {}),
  }
}
