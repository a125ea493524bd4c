/**
 * @module One offer: carrier logo and name, headline, checkmark bullets, product name and the "View rate"
 * link. Collapsed, every card has the same height at a given width (one-line names, a two-line headline,
 * three one-line bullets), so a card replaces its skeleton without moving anything; "More details" opens
 * the rest. Upstream text is rendered as text (React escapes it), never as HTML.
 */
import { useEffect, useId, useState } from 'react'
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

/** Whether collapsed copy may hide something: more than three bullets, or text past what one line holds. */
export function isClamped(offer: Pick<DisplayOffer, 'headline' | 'descriptionPoints'>): boolean {
  return (
    offer.descriptionPoints.length > 3 ||
    offer.headline.length > 60 ||
    offer.descriptionPoints.some((point) => point.length > 36)
  )
}

export function OfferCard({ offer, labels, headingLevel, tracker, onClick }: OfferCardProps) {
  // docs/offer-search-api.md rule 4: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered." The
  // tracker de-duplicates, so StrictMode's second effect and later polls fire nothing twice.
  useEffect(() => {
    tracker?.track(offer.uuid, offer.pixelUrls)
  }, [tracker, offer.uuid, offer.pixelUrls])
  const [open, setOpen] = useState(false)
  const id = useId()

  const Heading = `h${Math.min(headingLevel, 6)}` as 'h3'
  return (
    <li
      className="ow-card"
      data-offer-uuid={offer.uuid}
      data-ow-flip={offer.uuid}
      data-ow-open={open || undefined}
    >
      <div className="ow-card-head">
        <span className="ow-logo">
          {offer.carrierLogoUrl && (
            <img
              src={offer.carrierLogoUrl}
              alt=""
              loading="lazy"
              referrerPolicy="strict-origin-when-cross-origin"
              // The carrier's name is beside it: a logo that fails leaves an empty box, not a broken image.
              onError={(event) => {
                event.currentTarget.style.visibility = 'hidden'
              }}
            />
          )}
        </span>
        <div className="ow-names">
          <p className="ow-carrier">{offer.carrierName}</p>
          <p className="ow-product ow-muted">{offer.productDisplayName}</p>
        </div>
      </div>
      <Heading className="ow-headline">{offer.headline}</Heading>
      <ul className="ow-points" id={id}>
        {offer.descriptionPoints.map((point, index) => (
          // Points have no id and may repeat; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index}>{point}</li>
        ))}
      </ul>
      {/* The toggle's row is there either way, so every collapsed card has the same height. */}
      <span className="ow-toggle">
        {isClamped(offer) && (
          <button
            type="button"
            className="ow-link"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen(!open)}
          >
            {open ? labels.fewerDetails : labels.moreDetails}
          </button>
        )}
      </span>
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
    </li>
  )
}

/**
 * A card's place while its offer is expected: the same boxes, empty, so the swap moves nothing. A `spacer`
 * keeps a place no longer expected, invisible.
 */
export function SkeletonCard({ index, spacer }: { index: number; spacer: boolean }) {
  return (
    <li
      className={spacer ? 'ow-slot ow-spacer' : 'ow-slot ow-skeleton'}
      aria-hidden="true"
      data-ow-flip={`skeleton-${index}`}
    >
      <div className="ow-card-head">
        <span className="ow-logo" />
        <div className="ow-names">
          <p className="ow-carrier" />
          <p className="ow-product" />
        </div>
      </div>
      <p className="ow-headline" />
      <ul className="ow-points" />
      <span className="ow-toggle" />
      <span className="ow-cta" />
    </li>
  )
}
