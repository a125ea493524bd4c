/**
 * @module The card's source line: "Quote via Brightway Quotes" when the quoting partner is not the
 * carrier, and "Disclaimer", which moves to the partner's entry in the Disclaimers block, so a visitor can
 * tell two cards of one carrier apart and find the licence line that belongs to each
 * (docs/decisions/0109-offer-sources.md).
 */
import type { DisplayOffer } from './display-rules.ts'
import { formatLabel, joinNames, type Labels } from './labels.ts'

export interface OfferSourceProps {
  /** The "Quote via" text's id, which the card is described by. */
  viaId: string
  /** The card's name, which "Disclaimer" is described by: several cards have one. */
  nameId: string
  offer: DisplayOffer
  labels: Labels
  /** The element id of the first disclaimer that goes with the offer, in the Disclaimers block. */
  disclaimerId: string | undefined
}

export function OfferSource({ viaId, nameId, offer, labels, disclaimerId }: OfferSourceProps) {
  return (
    <p className="ow-source ow-muted">
      {offer.quotedVia.length > 0 && (
        <span id={viaId}>
          {formatLabel(labels.quoteVia, { partner: joinNames(offer.quotedVia, labels.lang, 'disjunction') })}
        </span>
      )}
      {disclaimerId !== undefined && (
        <button
          type="button"
          className="ow-link"
          aria-describedby={nameId}
          onClick={(event) => {
            // The widget's own tree (a shadow root, or the page): focus opens a clamped block (Disclaimers.tsx).
            const root = event.currentTarget.getRootNode() as Document | ShadowRoot
            root.getElementById(disclaimerId)?.focus()
          }}
        >
          {labels.seeDisclaimer}
        </button>
      )}
    </p>
  )
}
