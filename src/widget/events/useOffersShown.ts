/**
 * @module Reports offers new to the screen, each once per widget and search (StrictMode, re-renders and
 * remounts included), with its slot: `onOffersShown` and the `offers_shown` event. Called by the widget after
 * its search hook, so a search whose first answer already carries offers reports `search_created` first
 * (effects run in order within a component, and a child's before its parent's).
 */
import type { QueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { OfferSource } from '../bff-client.ts'
import type { DisplayOffer, PositionedOffer } from '../display-rules.ts'
import { firstTime } from '../once.ts'
import { eventOffer } from './event-offer.ts'
import type { OfferWidgetEvent } from './widget-event.ts'

export function useOffersShown(
  client: QueryClient,
  searchKey: string,
  /** The cards on screen, in order; empty while the list is not shown. */
  onScreen: readonly DisplayOffer[],
  source: OfferSource,
  onOffersShown: ((offers: PositionedOffer[]) => void) | undefined,
  emit: (event: OfferWidgetEvent) => void,
): void {
  useEffect(() => {
    const fresh = onScreen.flatMap((offer, slot) =>
      firstTime(client, `${searchKey}:shown:${offer.uuid}`) ? { ...offer, position: slot + 1 } : [],
    )
    if (fresh.length === 0) return
    onOffersShown?.(fresh)
    emit({ type: 'offers_shown', source, offers: fresh.map((offer) => eventOffer(offer, offer.position)) })
  })
}
