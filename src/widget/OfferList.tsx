/**
 * @module The ranked list of offer cards, and the `onOffersShown` report of offers new to the screen.
 */
import type { QueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { DisplayOffer } from './display-rules.ts'
import type { Labels } from './labels.ts'
import { OfferCard } from './OfferCard.tsx'
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
  onOffersShown: ((offers: DisplayOffer[]) => void) | undefined
  onOfferClick: ((offer: DisplayOffer) => void) | undefined
}

export function OfferList(props: OfferListProps) {
  const { offers, client, searchKey } = props
  const callbacks = useLatestRef({ onOffersShown: props.onOffersShown, onOfferClick: props.onOfferClick })

  useEffect(() => {
    const fresh = offers.filter((offer) => firstTime(client, `${searchKey}:shown:${offer.uuid}`))
    if (fresh.length > 0) callbacks.current.onOffersShown?.(fresh)
  }, [offers, client, searchKey, callbacks])

  return (
    <ul className="ow-offers">
      {props.offers.map((offer) => (
        <OfferCard
          key={offer.uuid}
          offer={offer}
          labels={props.labels}
          headingLevel={props.headingLevel}
          tracker={props.tracker}
          onClick={(clicked) => callbacks.current.onOfferClick?.(clicked)}
        />
      ))}
    </ul>
  )
}
