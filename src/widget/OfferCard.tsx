/**
 * @module One offer, designed from a 280 px container up: the lender's logo (a slot wide enough for a
 * wordmark), its name and product, who quoted it, the headline, checkmark bullets, a loan's figures, the
 * call to action, then "More details" and "Disclaimer" where they apply, and a second-look partner's
 * disclaimer under its own offer. Every text wraps; nothing is cut with an
 * ellipsis, and no clamp cuts a price or rate figure. Upstream text is rendered as text (React escapes
 * it), never as HTML.
 */
import { memo, useEffect, useId, useState } from 'react'
import { CardLinks } from './CardLinks.tsx'
import { carriesFigure } from './copy-figures.ts'
import type { DisplayOffer } from './display-rules.ts'
import { LoanTerms } from './LoanTerms.tsx'
import { formatLabel, joinNames, type Labels } from './labels.ts'
import type { PixelTracker } from './pixel-tracker.ts'

export interface OfferCardProps {
  offer: DisplayOffer
  labels: Labels
  headingLevel: number
  /** `undefined` in preview mode: previews fire no pixels. */
  tracker: PixelTracker | undefined
  /** The widget's id prefix: a disclaimer in the Disclaimers block is `disclaimerElementId(idBase, partnerUuid)`. */
  idBase: string
  onClick: (offer: DisplayOffer) => void
  /** "More details" opened (`true`) or closed. */
  onDetails: (offer: DisplayOffer, open: boolean) => void
}

/** The id of a partner's entry in the Disclaimers block, which cards point to (`aria-describedby`). */
export const disclaimerElementId = (idBase: string, partnerUuid: string) =>
  `${idBase}-disclaimer-${partnerUuid}`

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
 * The bullets a collapsed card shows, by position: the first few, and every later one that carries a price
 * or rate figure (in their order), so "More details" never hides the number a visitor compares.
 */
export function collapsedPoints(points: readonly string[]): number[] {
  const count = collapsedPointCount(points)
  return points.flatMap((point, index) => (index < count || carriesFigure(point) ? [index] : []))
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
  return (
    collapsedPoints(offer.descriptionPoints).length < offer.descriptionPoints.length || hasLongCopy(offer)
  )
}

/** Whether the card clamps its headline and bullets while collapsed. */
function hasLongCopy(
  offer: Pick<DisplayOffer, 'descriptionPoints'> & Partial<Pick<DisplayOffer, 'headline'>>,
): boolean {
  // A text with a figure is never clamped (styles.css), so only the others can be cut.
  const long = (text: string, max: number) => text.length > max && !carriesFigure(text)
  return (
    long(offer.headline ?? '', CLAMP_CHARS.headline) ||
    offer.descriptionPoints
      .slice(0, collapsedPointCount(offer.descriptionPoints))
      .some((point) => long(point, CLAMP_CHARS.point))
  )
}

/**
 * A card renders again only when its offer, its labels, level or tracker changed. An offer with the same
 * content as at the last poll is the same object (the search core shares every unchanged part of its
 * result, offer-search.ts), and a phone pays for every card it re-renders. `onClick` and `onDetails` are
 * left out of the comparison: the list passes functions that read its latest props.
 */
export const OfferCard = memo(
  OfferCardView,
  (before, after) =>
    before.labels === after.labels &&
    before.headingLevel === after.headingLevel &&
    before.tracker === after.tracker &&
    before.idBase === after.idBase &&
    before.offer === after.offer,
)

// long-function: one card's markup, top to bottom as a visitor reads it (logo, names, headline, points, loan terms, the call to action, the disclaimer); LoanTerms and CardLinks are components of their own
function OfferCardView({ offer, labels, headingLevel, tracker, idBase, onClick, onDetails }: OfferCardProps) {
  // docs/offer-search-api.md rule 4: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered." The
  // tracker de-duplicates, so StrictMode's second effect and later polls fire nothing twice.
  useEffect(() => {
    tracker?.track(offer.uuid, offer.pixelUrls)
  }, [tracker, offer.uuid, offer.pixelUrls])
  const [open, setOpen] = useState(false)
  // A logo that fails to load gives its slot back: the lender's name below is the card's identity.
  const [logoFailed, setLogoFailed] = useState(false)
  const id = useId()
  const shown = open ? undefined : new Set(collapsedPoints(offer.descriptionPoints))
  const clamped = isClamped(offer)
  const figure = (text: string) => carriesFigure(text) || undefined
  const disclaimerIds = offer.disclaimerPartners.map((partner) => disclaimerElementId(idBase, partner))
  // Read with the card and with its link: the licence text that goes with it (and, on the card, who quoted it).
  const legalIds = [...disclaimerIds, ...(offer.disclaimer ? [`${id}-disclaimer`] : [])]
  const cardDescribedBy = [...(offer.quotedVia.length > 0 ? [`${id}-via`] : []), ...legalIds]

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
      aria-describedby={cardDescribedBy.length > 0 ? cardDescribedBy.join(' ') : undefined}
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
          <p className="ow-carrier" id={`${id}-name`} data-ow-figure={figure(offer.carrierName)}>
            {offer.carrierName}
          </p>
          {offer.productDisplayName && (
            <p className="ow-product ow-muted" data-ow-figure={figure(offer.productDisplayName)}>
              {offer.productDisplayName}
            </p>
          )}
          {offer.quotedVia.length > 0 && (
            <p className="ow-via ow-muted" id={`${id}-via`}>
              {formatLabel(labels.quoteVia, {
                partner: joinNames(offer.quotedVia, labels.lang, 'disjunction'),
              })}
            </p>
          )}
        </div>
      </div>
      <div className="ow-body">
        {offer.headline && (
          <Heading className="ow-headline" data-ow-figure={figure(offer.headline)}>
            {offer.headline}
          </Heading>
        )}
        {offer.descriptionPoints.length > 0 && (
          <ul className="ow-points" id={`${id}-points`}>
            {offer.descriptionPoints.map((point, index) =>
              shown && !shown.has(index) ? null : (
                // Points have no id and may repeat; their position is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <li key={index} data-ow-figure={figure(point)}>
                  {point}
                </li>
              ),
            )}
          </ul>
        )}
        {offer.loanTerms && <LoanTerms terms={offer.loanTerms} labels={labels} />}
      </div>
      {/* First in tab order after the name: the call to action, then "More details" and "Disclaimer". */}
      <a
        className="ow-cta"
        href={offer.href}
        target="_blank"
        rel="noopener sponsored"
        aria-describedby={legalIds.length > 0 ? legalIds.join(' ') : undefined}
        onClick={() => onClick(offer)}
      >
        {labels.viewRate}
        <span className="ow-visually-hidden">
          {' '}
          ({offer.carrierName}, {labels.opensInNewTab})
        </span>
      </a>
      <CardLinks
        clamped={clamped}
        open={open}
        onToggle={() => {
          setOpen(!open)
          onDetails(offer, !open)
        }}
        pointsId={`${id}-points`}
        nameId={`${id}-name`}
        disclaimerId={disclaimerIds[0]}
        labels={labels}
      />
      {offer.disclaimer && (
        <p className="ow-card-disclaimer ow-muted" id={`${id}-disclaimer`}>
          {offer.disclaimer}
        </p>
      )}
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
