/**
 * @module The ranked list of offer cards: the cards on screen (arranged by the widget, arrange-offers.ts),
 * skeleton cards for the places that can still fill while partners are pending, and "Show N more" for the
 * rest. Moves focus to the first card the visitor revealed. Also the `onOffersShown` report of offers new
 * to the screen.
 */
import type { QueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { DisplayOffer } from './display-rules.ts'
import { formatLabel, type Labels } from './labels.ts'
import { OfferCard, SkeletonCard } from './OfferCard.tsx'
import { firstTime } from './once.ts'
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
  /** The widget's client and search: "already shown" is remembered per widget and search. */
  client: QueryClient
  searchKey: string
  /** Places that can still fill (offers expected from pending partners), drawn as skeleton cards. */
  expected: number
  /** Places on screen: `initialOffers` until the visitor asks for more. */
  places: number
  /** The visitor asked for every offer (`Show N more`). */
  onShowAll: () => void
  onOffersShown: ((offers: DisplayOffer[]) => void) | undefined
  onOfferClick: ((offer: DisplayOffer) => void) | undefined
}

export function OfferList(props: OfferListProps) {
  const { client, searchKey, labels } = props
  const callbacks = useLatestRef({ onOffersShown: props.onOffersShown, onOfferClick: props.onOfferClick })
  const { places, visible, hidden } = props
  // After the visitor revealed cards: the uuids on screen before, so focus goes to the first card new to it.
  const focusNext = useRef<ReadonlySet<string> | undefined>(undefined)
  const listRef = useRef<HTMLUListElement>(null)
  const skeletons = Math.max(0, Math.min(props.expected, places - visible.length))

  useEffect(() => {
    const fresh = visible.filter((offer) => firstTime(client, `${searchKey}:shown:${offer.uuid}`))
    if (fresh.length > 0) callbacks.current.onOffersShown?.(fresh)
  })

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
            onClick={(clicked) => callbacks.current.onOfferClick?.(clicked)}
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
            }}
          >
            {formatLabel(labels.moreOffers, { count: hidden })}
          </button>
        </div>
      )}
    </div>
  )
}
