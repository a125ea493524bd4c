/**
 * @module One offer, designed from a 280 px container up: the lender's logo (a slot wide enough for a
 * wordmark), its name and product, the headline, checkmark bullets, the call to action, then "More
 * details" when some copy waits behind it, and a second-look partner's disclaimer under its own offer.
 * Every text wraps; nothing is cut with an ellipsis. Upstream text is rendered as text (React escapes
 * it), never as HTML.
 */
import { memo, useEffect, useId, useState } from 'react'
import type { DisplayOffer } from './display-rules.ts'
import type { Labels } from './labels.ts'
import type { PixelTracker } from './pixel-tracker.ts'

export interface OfferCardProps {
  offer: DisplayOffer
  labels: Labels
  headingLevel: number
  /** `undefined` in preview mode: previews fire no pixels. */
  tracker: PixelTracker | undefined
  onClick: (offer: DisplayOffer) => void
}

/** Bullets shown before "More details": at most three, fewer when they are long (a phone shows a card, not a page). */
const COLLAPSED_POINTS = 3
const COLLAPSED_CHARS = 220

/** How many bullets a collapsed card shows: whole bullets only, at least one, so no bullet is ever cut. */
export function collapsedPointCount(points: readonly string[]): number {
  let chars = 0
  let count = 0
  for (const point of points.slice(0, COLLAPSED_POINTS)) {
    chars += point.length
    if (count > 0 && chars > COLLAPSED_CHARS) break
    count++
  }
  return count
}

/**
 * Past these lengths a text may pass its clamp (styles.css: three lines of headline or bullet, two of name
 * or product) in a 280 px card, so the card clamps
 * and offers "More details". Decided from the text, not measured, so the server and the browser render the
 * same card and no toggle appears after the first paint.
 */
const CLAMP_CHARS = { headline: 60, point: 80, name: 30, product: 40 }

/** Whether "More details" has something to reveal: bullets past the first few, or text that may be clamped. */
export function isClamped(
  offer: Pick<DisplayOffer, 'descriptionPoints'> & Partial<Pick<DisplayOffer, 'headline'>>,
): boolean {
  return collapsedPointCount(offer.descriptionPoints) < offer.descriptionPoints.length || hasLongCopy(offer)
}

/** Whether the card clamps its headline and bullets while collapsed. */
function hasLongCopy(
  offer: Pick<DisplayOffer, 'descriptionPoints'> & Partial<Pick<DisplayOffer, 'headline'>>,
): boolean {
  return (
    (offer.headline?.length ?? 0) > CLAMP_CHARS.headline ||
    offer.descriptionPoints
      .slice(0, collapsedPointCount(offer.descriptionPoints))
      .some((point) => point.length > CLAMP_CHARS.point)
  )
}

/**
 * A card renders again only when its offer, its labels, level or tracker changed. An offer with the same
 * content as at the last poll is the same object (the search core shares every unchanged part of its
 * result, offer-search.ts), and a phone pays for every card it re-renders. `onClick` is left out of the
 * comparison: the list passes a function that calls the latest callback.
 */
export const OfferCard = memo(
  OfferCardView,
  (before, after) =>
    before.labels === after.labels &&
    before.headingLevel === after.headingLevel &&
    before.tracker === after.tracker &&
    before.offer === after.offer,
)

function OfferCardView({ offer, labels, headingLevel, tracker, onClick }: OfferCardProps) {
  // docs/offer-search-api.md rule 4: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered." The
  // tracker de-duplicates, so StrictMode's second effect and later polls fire nothing twice.
  useEffect(() => {
    tracker?.track(offer.uuid, offer.pixelUrls)
  }, [tracker, offer.uuid, offer.pixelUrls])
  const [open, setOpen] = useState(false)
  // A logo that fails to load gives its slot back: the lender's name below is the card's identity.
  const [logoFailed, setLogoFailed] = useState(false)
  const id = useId()
  const shownPoints = open ? offer.descriptionPoints.length : collapsedPointCount(offer.descriptionPoints)
  const clamped = isClamped(offer)

  const Heading = `h${Math.min(headingLevel, 6)}` as 'h3'
  return (
    <li
      className="ow-card"
      data-offer-uuid={offer.uuid}
      data-ow-flip={offer.uuid}
      data-ow-open={open || undefined}
      data-ow-clamp={hasLongCopy(offer) || undefined}
      // Focus lands here after "Show N more" or "N new offers": the whole card is read, Tab goes on to its link.
      tabIndex={-1}
      aria-labelledby={`${id}-name`}
    >
      <div className="ow-card-head">
        {offer.carrierLogoUrl && !logoFailed && (
          <span className="ow-logo">
            <img
              src={offer.carrierLogoUrl}
              alt=""
              // Lazy also keeps React's server renderer from adding a preload hint for every logo.
              loading="lazy"
              referrerPolicy="strict-origin-when-cross-origin"
              onError={() => setLogoFailed(true)}
            />
          </span>
        )}
        <div className="ow-names">
          <p className="ow-carrier" id={`${id}-name`}>
            {offer.carrierName}
          </p>
          {offer.productDisplayName && <p className="ow-product ow-muted">{offer.productDisplayName}</p>}
        </div>
      </div>
      <div className="ow-body">
        {offer.headline && <Heading className="ow-headline">{offer.headline}</Heading>}
        {offer.descriptionPoints.length > 0 && (
          <ul className="ow-points" id={`${id}-points`}>
            {offer.descriptionPoints.slice(0, shownPoints).map((point, index) => (
              // Points have no id and may repeat; their position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index}>{point}</li>
            ))}
          </ul>
        )}
      </div>
      {/* First in tab order after the name: the call to action, then the details toggle. */}
      <a
        className="ow-cta"
        href={offer.href}
        target="_blank"
        rel="noopener sponsored"
        onClick={() => onClick(offer)}
      >
        {labels.viewRate}
        <span className="ow-visually-hidden">
          {' '}
          ({offer.carrierName}, {labels.opensInNewTab})
        </span>
      </a>
      {clamped && (
        <button
          type="button"
          className="ow-link ow-toggle"
          aria-expanded={open}
          aria-controls={`${id}-points`}
          onClick={() => setOpen(!open)}
        >
          {open ? labels.fewerDetails : labels.moreDetails}
        </button>
      )}
      {offer.disclaimer && <p className="ow-card-disclaimer ow-muted">{offer.disclaimer}</p>}
    </li>
  )
}

/**
 * A card's place while an offer for it can still arrive: the card's boxes, empty and shimmering, about
 * the height of a typical card at this width.
 */
export function SkeletonCard({ index }: { index: number }) {
  return (
    <li className="ow-slot ow-skeleton" aria-hidden="true" data-ow-flip={`skeleton-${index}`}>
      <div className="ow-card-head">
        <span className="ow-logo" />
        <div className="ow-names">
          <p className="ow-carrier" />
          <p className="ow-product" />
        </div>
      </div>
      <div className="ow-body">
        <p className="ow-headline" />
        <ul className="ow-points">
          <li />
          <li />
        </ul>
      </div>
      <span className="ow-cta" />
    </li>
  )
}
