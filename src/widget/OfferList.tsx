/**
 * @module The ranked list of offer cards: the cards on screen (arranged by the widget, arrange-offers.ts),
 * skeleton cards for the places that can still fill while partners are pending, and "Show N more" for the
 * rest. Moves focus to the first card the visitor revealed. Also the reports of what happens in the list
 * (docs/events.md): a click, "More details", "Show N more", each offer with its slot (offers new to the screen:
 * events/useOffersShown.ts).
 */
import { useEffect, useRef } from 'react'
import type { OfferSource } from './bff-client.ts'
import type { DisplayOffer, PositionedOffer } from './display-rules.ts'
import { eventOffer } from './events/event-offer.ts'
import type { OfferWidgetEvent } from './events/widget-event.ts'
import { formatLabel, type Labels } from './labels.ts'
import { OfferCard, SkeletonCard } from './OfferCard.tsx'
import type { PixelTracker } from './pixel-tracker.ts'
import { useLatestRef } from './useLatestRef.ts'

export interface OfferListProps {
  /** The cards on screen, in order. */
  visible: readonly DisplayOffer[]
  /** Offers behind "Show N more". */
  hidden: number
  labels: Labels
  headingLevel: number
  /** The widget's id prefix, which cards use to point to their disclaimers. */
  idBase: string
  tracker: PixelTracker | undefined
  /** Places that can still fill (offers expected from pending partners), drawn as skeleton cards. */
  expected: number
  /** Places on screen: `initialOffers` until the visitor asks for more. */
  places: number
  /** The visitor asked for every offer (`Show N more`). */
  onShowAll: () => void
  source: OfferSource
  onOfferClick: ((offer: PositionedOffer) => void) | undefined
  emit: (event: OfferWidgetEvent) => void
}

export function OfferList(props: OfferListProps) {
  const { labels } = props
  const latest = useLatestRef(props)
  const { places, visible, hidden, source, emit } = props
  // After the visitor revealed cards: the uuids on screen before, so focus goes to the first card new to it.
  const focusNext = useRef<ReadonlySet<string> | undefined>(undefined)
  const listRef = useRef<HTMLUListElement>(null)
  const skeletons = Math.max(0, Math.min(props.expected, places - visible.length))

  /** An offer in its slot now: a memoized card's handler runs long after the list's render. */
  const inSlot = (offer: DisplayOffer) =>
    eventOffer(offer, latest.current.visible.findIndex((o) => o.uuid === offer.uuid) + 1)

  // After the commit's layout work (StableLayout measures positions then): focusing may scroll the page,
  // which must not happen between its two measurements.
  useEffect(() => {
    const before = focusNext.current
    if (before === undefined) return
    focusNext.current = undefined
    const cards = [...(listRef.current?.querySelectorAll<HTMLElement>('li.ow-card') ?? [])]
    cards.find((card) => !before.has(card.dataset.offerUuid ?? ''))?.focus()
  })

  return (
    <div className="ow-list">
      <ul className="ow-offers" ref={listRef}>
        {visible.map((offer) => (
          <OfferCard
            key={offer.uuid}
            offer={offer}
            labels={labels}
            headingLevel={props.headingLevel}
            idBase={props.idBase}
            tracker={props.tracker}
            onClick={(clicked) => {
              const now = latest.current
              const item = inSlot(clicked)
              now.onOfferClick?.({ ...clicked, position: item.position })
              now.emit({ type: 'offer_click', source: now.source, offer: item })
            }}
            onDetails={(toggled, open) =>
              latest.current.emit({
                type: 'more_details',
                source: latest.current.source,
                open,
                offer: inSlot(toggled),
              })
            }
          />
        ))}
        {Array.from({ length: skeletons }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: places, not items
          <SkeletonCard key={i} index={i} />
        ))}
      </ul>
      {hidden > 0 && (
        <div className="ow-more" data-ow-flip="more">
          <button
            type="button"
            className="ow-button ow-button-secondary"
            onClick={() => {
              focusNext.current = new Set(visible.map((offer) => offer.uuid))
              props.onShowAll()
              emit({ type: 'show_more', source, revealed: hidden })
            }}
          >
            {formatLabel(labels.moreOffers, { count: hidden })}
          </button>
        </div>
      )}
    </div>
  )
}
