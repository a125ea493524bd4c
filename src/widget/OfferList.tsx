/**
 * @module The ranked list of offer cards with its reserved places: skeleton cards for partners still
 * pending, the first `initialOffers` cards until the visitor asks for more, and arrivals held while the
 * visitor is inside the widget (arrange-offers.ts) behind a "1 new offer" control. Also the
 * `onOffersShown` report of offers new to the screen.
 */
import type { QueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { arrangeOffers } from './arrange-offers.ts'
import type { DisplayOffer } from './display-rules.ts'
import { countLabel, formatLabel, type Labels } from './labels.ts'
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
  /** The visitor's pointer or focus is inside the widget: nothing moves under it. */
  holding: boolean
  /** Places kept for offers still expected (pending partners), drawn as skeleton cards. */
  expected: number
  /** Cards shown before the visitor asks for more. */
  initialOffers: number
  onOffersShown: ((offers: DisplayOffer[]) => void) | undefined
  onOfferClick: ((offer: DisplayOffer) => void) | undefined
}

export function OfferList(props: OfferListProps) {
  const { client, searchKey, labels } = props
  const callbacks = useLatestRef({ onOffersShown: props.onOffersShown, onOfferClick: props.onOfferClick })
  const [all, setAll] = useState(false)
  // What was on screen at the last render; read only while the visitor is inside.
  const onScreen = useRef<string[] | undefined>(undefined)
  const [, reorder] = useState(0)
  const { shown, held } = arrangeOffers(props.offers, props.holding ? onScreen.current : undefined)
  const limit = all ? shown.length : props.initialOffers
  const visible = shown.slice(0, limit)
  onScreen.current = visible.map((offer) => offer.uuid)
  const hidden = shown.length - visible.length
  const skeletons = Math.max(0, Math.min(props.expected, limit - visible.length))
  // The list never gets shorter by itself: places no longer expected stay as invisible spacers.
  const places = useRef(0)
  places.current = Math.max(places.current, visible.length + skeletons)
  const fillers = places.current - visible.length

  useEffect(() => {
    const fresh = visible.filter((offer) => firstTime(client, `${searchKey}:shown:${offer.uuid}`))
    if (fresh.length > 0) callbacks.current.onOffersShown?.(fresh)
  })

  return (
    <div className="ow-list">
      {/* Positioned over the list's top edge: its arrival moves nothing. */}
      {held > 0 && (
        <button
          type="button"
          className="ow-button ow-new"
          onClick={() => {
            onScreen.current = undefined
            reorder((n) => n + 1)
          }}
        >
          {countLabel(labels.newOffer, labels.newOffers, held)}
        </button>
      )}
      <ul className="ow-offers">
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
        {Array.from({ length: fillers }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: places, not items
          <SkeletonCard key={i} index={i} spacer={i >= skeletons} />
        ))}
      </ul>
      {/* Its place is kept while the list exists, so the button's arrival moves nothing below. */}
      <div className="ow-more">
        {hidden > 0 && (
          <button type="button" className="ow-link" onClick={() => setAll(true)}>
            {formatLabel(labels.moreOffers, { count: hidden })}
          </button>
        )}
      </div>
    </div>
  )
}
