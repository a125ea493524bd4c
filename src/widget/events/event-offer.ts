/**
 * @module An offer on screen as events report it (widget-event.ts `EventOffer`): its slot and rank, and the
 * names its card shows. Nothing else of the offer: its links carry tracking parameters of the partner's.
 */
import type { DisplayOffer } from '../display-rules.ts'
import type { EventOffer } from './widget-event.ts'

export const eventOffer = (offer: DisplayOffer, position: number): EventOffer => ({
  uuid: offer.uuid,
  position,
  rank: offer.rank,
  name: offer.carrierName,
  product: offer.productDisplayName,
  productType: offer.productType,
})
