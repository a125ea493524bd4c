/**
 * @module The ranked list of offer cards: skeleton cards for the places that can still fill while partners
 * are pending, the first `initialOffers` cards until the visitor asks for more, and better-ranked arrivals
 * that would move a card on screen held behind a "N new offers" control (arrange-offers.ts). Moves focus
 * to the first card the visitor revealed. Also the `onOffersShown` report of offers new to the screen.
 */
import type { QueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { arrangeOffers } from './arrange-offers.ts'
import type { DisplayOffer } from './display-rules.ts'
import { countLabel, formatLabel, type Labels } from './labels.ts'
import { prefersReducedMotion } from './layout-flip.ts'
import { OfferCard, SkeletonCard } from './OfferCard.tsx'
import { firstTime } from './once.ts'
import type { PixelTracker } from './pixel-tracker.ts'
import { useLatestRef } from './useLatestRef.ts'

export interface OfferListProps {
  offers: DisplayOffer[]
  labels: Labels
  headingLevel: number
  tracker: PixelTracker | undefined
  /** The widget's client and search: "already shown" is remembered per widget and search. */
  client: QueryClient
  searchKey: string
  /** The visitor's pointer, finger or focus is inside the widget: nothing moves under it. */
  holding: boolean
  /** Places that can still fill (offers expected from pending partners), drawn as skeleton cards. */
  expected: number
  /**
   * Places on screen: `initialOffers` until the visitor asks for more. Held by the widget, so that a change
   * re-renders its StableLayout, which slides whatever the change moves.
   */
  places: number
  /** The visitor asked for more places (`Show N more`, `N new offers`). */
  onPlaces: (places: number) => void
  onOffersShown: ((offers: DisplayOffer[]) => void) | undefined
  onOfferClick: ((offer: DisplayOffer) => void) | undefined
}

export function OfferList(props: OfferListProps) {
  const { client, searchKey, labels } = props
  const callbacks = useLatestRef({ onOffersShown: props.onOffersShown, onOfferClick: props.onOfferClick })
  const { places } = props
  // The uuids on screen at the last render, in their order: what no later arrival may move out of view.
  const onScreen = useRef<string[]>([])
  // After the visitor revealed cards: the uuids on screen before, so focus goes to the first card new to it.
  const focusNext = useRef<ReadonlySet<string> | undefined>(undefined)
  const listRef = useRef<HTMLUListElement>(null)

  const still = props.holding || prefersReducedMotion(typeof window === 'undefined' ? undefined : window)
  const { shown, held } = arrangeOffers(props.offers, onScreen.current, { places, still })
  const visible = shown.slice(0, places)
  onScreen.current = visible.map((offer) => offer.uuid)
  const hidden = shown.length - visible.length
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
      {/* Positioned over the list's top edge: its arrival moves nothing. */}
      {held > 0 && (
        <button
          type="button"
          className="ow-button ow-new"
          onClick={() => {
            // The visitor asked: everything in rank order, with room for every card that was on screen.
            focusNext.current = new Set(onScreen.current)
            onScreen.current = []
            props.onPlaces(Math.max(places, visible.length + held))
          }}
        >
          {countLabel(labels.newOffer, labels.newOffers, held)}
        </button>
      )}
      <ul className="ow-offers" ref={listRef}>
        {visible.map((offer) => (
          <OfferCard
            key={offer.uuid}
            offer={offer}
            labels={labels}
            headingLevel={props.headingLevel}
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
            className="ow-link"
            onClick={() => {
              focusNext.current = new Set(onScreen.current)
              props.onPlaces(Number.POSITIVE_INFINITY)
            }}
          >
            {formatLabel(labels.moreOffers, { count: hidden })}
          </button>
        </div>
      )}
    </div>
  )
}
