/**
 * @module One offer: carrier logo and name, headline, checkmark bullets, product name and the "View rate"
 * link. Upstream text is rendered as text (React escapes it), never as HTML.
 */
import { useEffect } from 'react'
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

export function OfferCard({ offer, labels, headingLevel, tracker, onClick }: OfferCardProps) {
  // Seed 000 rule 4: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered." The
  // tracker de-duplicates, so StrictMode's second effect and later polls fire nothing twice.
  useEffect(() => {
    tracker?.track(offer.uuid, offer.pixelUrls)
  }, [tracker, offer.uuid, offer.pixelUrls])

  const Heading = `h${Math.min(headingLevel, 6)}` as 'h3'
  return (
    <li className="ow-card" data-offer-uuid={offer.uuid} data-ow-flip={offer.uuid}>
      <div className="ow-card-head">
        {offer.carrierLogoUrl && (
          <img
            className="ow-logo"
            src={offer.carrierLogoUrl}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        )}
        <div>
          <p className="ow-carrier">{offer.carrierName}</p>
          <p className="ow-product ow-muted">{offer.productDisplayName}</p>
        </div>
      </div>
      <Heading className="ow-headline">{offer.headline}</Heading>
      {offer.descriptionPoints.length > 0 && (
        <ul className="ow-points">
          {offer.descriptionPoints.map((point, index) => (
            // Points have no id and may repeat; their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index}>{point}</li>
          ))}
        </ul>
      )}
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
