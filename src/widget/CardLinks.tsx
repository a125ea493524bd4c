/**
 * @module The links under a card's call to action: "More details" when copy waits behind it, and
 * "Disclaimer" when a disclaimer in the Disclaimers block goes with the offer, which moves focus to that
 * entry (docs/decisions/0109-offer-sources.md). After "View rate" in tab order: the call to action stays
 * the first stop of a card.
 */
import type { Labels } from './labels.ts'

export interface CardLinksProps {
  /** "More details" is offered: some copy waits behind it. */
  clamped: boolean
  open: boolean
  onToggle: () => void
  /** The bullets' id, which "More details" controls. */
  pointsId: string
  /** The card's name: several cards have a "Disclaimer", each described by its carrier. */
  nameId: string
  /** The element id of the first disclaimer that goes with the offer. */
  disclaimerId: string | undefined
  labels: Labels
}

export function CardLinks(props: CardLinksProps) {
  const { disclaimerId, labels } = props
  if (!props.clamped && disclaimerId === undefined) return null
  return (
    <div className="ow-card-links">
      {props.clamped && (
        <button
          type="button"
          className="ow-link ow-toggle"
          aria-expanded={props.open}
          aria-controls={props.pointsId}
          onClick={props.onToggle}
        >
          {props.open ? labels.fewerDetails : labels.moreDetails}
        </button>
      )}
      {disclaimerId !== undefined && (
        <button
          type="button"
          className="ow-link"
          aria-describedby={props.nameId}
          onClick={(event) => {
            // The widget's own tree (a shadow root, or the page): focus opens a clamped block (Disclaimers.tsx).
            const root = event.currentTarget.getRootNode() as Document | ShadowRoot
            root.getElementById(disclaimerId)?.focus()
          }}
        >
          {labels.seeDisclaimer}
        </button>
      )}
    </div>
  )
}
