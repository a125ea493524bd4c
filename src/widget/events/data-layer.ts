/**
 * @module `analytics="dataLayer"`: the event contract as Google Tag Manager's data layer reads it. Offers
 * shown and an offer click are GA4's recommended ecommerce events (`view_item_list`, `select_item`, each
 * after `{ ecommerce: null }`, which clears the previous ecommerce object as Google's guide asks), an offer
 * an item (`item_id` its uuid, `item_name` and `item_brand` its carrier or lender, `item_category` its
 * product type, `index` its position on screen, 1-based; the list named by the widget's `placement`); every other event is `offer_widget_<type>` with its
 * payload beside it. docs/events.md; docs/decisions/0111-event-contract.md.
 */
import type { EventOffer, OfferWidgetEvent } from './widget-event.ts'

const item = (offer: EventOffer) => ({
  item_id: offer.uuid,
  item_name: offer.name,
  item_brand: offer.name,
  item_category: offer.productType,
  index: offer.position,
})

/** What one event pushes, in order. */
export function dataLayerEntries(event: OfferWidgetEvent, placement?: string): object[] {
  const { type, ...rest } = event
  if (event.type === 'offers_shown' || event.type === 'offer_click') {
    return [
      { ecommerce: null },
      {
        event: event.type === 'offer_click' ? 'select_item' : 'view_item_list',
        ecommerce: {
          item_list_id: event.source,
          item_list_name: placement ?? 'Offer widget',
          items: (event.type === 'offer_click' ? [event.offer] : event.offers).map(item),
        },
      },
    ]
  }
  return [{ event: `offer_widget_${type}`, ...rest }]
}

/** Pushes `event` to `window.dataLayer`, creating the array when the page has none yet. */
export function pushToDataLayer(event: OfferWidgetEvent, placement?: string): void {
  const host = window as unknown as { dataLayer?: object[] }
  host.dataLayer ??= []
  host.dataLayer.push(...dataLayerEntries(event, placement))
}
