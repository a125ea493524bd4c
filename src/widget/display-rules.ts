/**
 * @module docs/offer-search-api.md's display rules as one pure function: which offers show, in what order, with which
 * link, logo and pixels. Components only render its output.
 */
import type { LoanTerms, Offer } from '../contract/rate-table.ts'
import { safeHttpUrl } from './safe-url.ts'

/** An offer ready to render: every URL already checked, the link already chosen. */
export interface DisplayOffer {
  uuid: string
  rank: number
  headline: string
  descriptionPoints: string[]
  productDisplayName: string
  /** The offer's `productType`, e.g. `AutomobileInsurance`. */
  productType: string
  carrierName: string
  /** `undefined` when upstream sent no usable http(s) logo. */
  carrierLogoUrl: string | undefined
  /** The chosen link, http(s): an offer without one is not shown (a card without a call to action). */
  href: string
  /** True when `href` is the monetized `url`. */
  monetized: boolean
  /** http(s) pixels only, duplicates removed. */
  pixelUrls: string[]
  /** A second-look partner's disclaimer, shown with this offer only; `undefined` when it has none. */
  disclaimer: string | undefined
  /** A second-look partner's APR, amount and term as figures (docs/partner-interface.md, "Loan terms"). */
  loanTerms: LoanTerms | undefined
  /**
   * The partner that quoted this offer, when it is not the carrier itself: the card says "Quote via …".
   * Several names when the widget cannot tell which of them it was (they answered in the same poll);
   * empty when none is known (docs/decisions/0109-offer-sources.md).
   */
  quotedVia: readonly string[]
  /** The `partnerUuid` of each `Disclaimer` that goes with this offer: the card points to them. */
  disclaimerPartners: readonly string[]
}

/** An offer on screen, as `onOffersShown` and `onOfferClick` receive it: with its slot, 1-based from the top. */
export type PositionedOffer = DisplayOffer & { position: number }

export interface DisplayOptions {
  /** Previews are never tracked: always `unmonetizedUrl`. */
  preview?: boolean
}

/** Rule 1: "Show only offers whose `status` is `active`." Compared exactly; other values are not shown. */
export function isActive(offer: Pick<Offer, 'status'>): boolean {
  return offer.status === 'active'
}

/**
 * Rule 3: "Use `url` when `isMonetized` is true; use `unmonetizedUrl` when the offer should not be tracked
 * for monetization." A preview is such a case, so it always takes `unmonetizedUrl`.
 */
export function chooseOfferUrl(
  offer: Pick<Offer, 'isMonetized' | 'url' | 'unmonetizedUrl'>,
  options: DisplayOptions = {},
): { href: string | undefined; monetized: boolean } {
  const monetized = offer.isMonetized && !options.preview
  return { href: safeHttpUrl(monetized ? offer.url : offer.unmonetizedUrl), monetized }
}

/**
 * Rules 1 to 3 applied to a rate table's offers: active only, rank ascending (stable), one per uuid, and
 * only those whose chosen link is http(s) (a preview may choose a link the BFF did not check).
 */
export function toDisplayOffers(offers: readonly Offer[], options: DisplayOptions = {}): DisplayOffer[] {
  const seen = new Set<string>()
  return offers
    .filter(isActive)
    .map((offer, index) => ({ offer, index }))
    .sort((a, b) => a.offer.rank - b.offer.rank || a.index - b.index)
    .filter(({ offer }) => {
      // A repeated uuid would render twice and fire its pixels under one key; the better rank wins.
      if (seen.has(offer.uuid)) return false
      seen.add(offer.uuid)
      return true
    })
    .flatMap(({ offer }) => {
      const { href, monetized } = chooseOfferUrl(offer, options)
      if (href === undefined) return []
      return {
        uuid: offer.uuid,
        rank: offer.rank,
        headline: offer.headline,
        descriptionPoints: offer.descriptionPoints,
        productDisplayName: offer.productDisplayName,
        productType: offer.productType,
        carrierName: offer.financialInstitutionDisplayName,
        carrierLogoUrl: safeHttpUrl(offer.financialInstitutionImageUrl),
        href,
        monetized,
        pixelUrls: safePixelUrls(offer.impressionTrackingPixelUrls ?? []),
        disclaimer: offer.disclaimer?.trim() || undefined,
        loanTerms: offer.loanTerms,
        quotedVia: NONE,
        disclaimerPartners: NONE,
      }
    })
}

const NONE: readonly string[] = []

function safePixelUrls(urls: readonly string[]): string[] {
  const out: string[] = []
  for (const raw of urls) {
    const url = safeHttpUrl(raw)
    if (url !== undefined && !out.includes(url)) out.push(url)
  }
  return out
}
