/**
 * @module `analytics="dataLayer"` (src/widget/events/data-layer.ts): GA4's recommended ecommerce events for
 * offers shown and an offer click, each after the `{ ecommerce: null }` that clears the last one; every other
 * event under `offer_widget_<type>` with its payload; `window.dataLayer` created when the page has none.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { dataLayerEntries, pushToDataLayer } from '../../../src/widget/events/data-layer.ts'
import type { EventOffer } from '../../../src/widget/events/widget-event.ts'

const offer = (position: number, rank: number): EventOffer => ({
  uuid: `offer-${rank}`,
  position,
  rank,
  name: `Carrier ${rank}`,
  product: 'Auto insurance',
  productType: 'AutomobileInsurance',
})

const host = window as unknown as { dataLayer?: unknown[] }

afterEach(() => {
  delete host.dataLayer
})

describe('GA4 ecommerce events', () => {
  test('offers shown: view_item_list, each offer an item whose index is its slot on screen', () => {
    expect(
      dataLayerEntries({ type: 'offers_shown', source: 'offer-search', offers: [offer(1, 2), offer(2, 1)] }),
    ).toEqual([
      { ecommerce: null },
      {
        event: 'view_item_list',
        ecommerce: {
          item_list_id: 'offer-search',
          item_list_name: 'Offer widget',
          items: [
            {
              item_id: 'offer-2',
              item_name: 'Carrier 2',
              item_brand: 'Carrier 2',
              item_category: 'AutomobileInsurance',
              index: 1,
            },
            {
              item_id: 'offer-1',
              item_name: 'Carrier 1',
              item_brand: 'Carrier 1',
              item_category: 'AutomobileInsurance',
              index: 2,
            },
          ],
        },
      },
    ])
  })

  test('offer click: select_item with the clicked item and its index', () => {
    expect(dataLayerEntries({ type: 'offer_click', source: 'second-look', offer: offer(3, 5) })).toEqual([
      { ecommerce: null },
      {
        event: 'select_item',
        ecommerce: {
          item_list_id: 'second-look',
          item_list_name: 'Offer widget',
          items: [
            {
              item_id: 'offer-5',
              item_name: 'Carrier 5',
              item_brand: 'Carrier 5',
              item_category: 'AutomobileInsurance',
              index: 3,
            },
          ],
        },
      },
    ])
  })
})

describe('events of our own', () => {
  test.each([
    [
      { type: 'form_view', form: 'search' },
      { event: 'offer_widget_form_view', form: 'search' },
    ],
    [
      { type: 'form_start', form: 'application', field: 'email' },
      { event: 'offer_widget_form_start', form: 'application', field: 'email' },
    ],
    [
      { type: 'form_submit', form: 'search' },
      { event: 'offer_widget_form_submit', form: 'search' },
    ],
    [
      { type: 'form_field_error', form: 'search', field: 'zipCode', error: 'invalid' },
      { event: 'offer_widget_form_field_error', form: 'search', field: 'zipCode', error: 'invalid' },
    ],
    [
      { type: 'search_created', source: 'offer-search', uuid: 'u1' },
      { event: 'offer_widget_search_created', source: 'offer-search', uuid: 'u1' },
    ],
    [
      { type: 'search_complete', source: 'offer-search', uuid: 'u1', offerCount: 4, incomplete: false },
      {
        event: 'offer_widget_search_complete',
        source: 'offer-search',
        uuid: 'u1',
        offerCount: 4,
        incomplete: false,
      },
    ],
    [
      { type: 'show_more', source: 'offer-search', revealed: 2 },
      { event: 'offer_widget_show_more', source: 'offer-search', revealed: 2 },
    ],
    [
      { type: 'more_details', source: 'offer-search', open: true, offer: offer(1, 1) },
      { event: 'offer_widget_more_details', source: 'offer-search', open: true, offer: offer(1, 1) },
    ],
    [
      { type: 'disclosure_open', via: 'text' },
      { event: 'offer_widget_disclosure_open', via: 'text' },
    ],
    [
      { type: 'error', kind: 'server', status: 503, code: 'upstream_unavailable' },
      { event: 'offer_widget_error', kind: 'server', status: 503, code: 'upstream_unavailable' },
    ],
  ] as const)('%o', (event, pushed) => {
    expect(dataLayerEntries(event)).toEqual([pushed])
  })
})

describe('window.dataLayer', () => {
  test('created when absent, appended to when the page has one (GTM may have replaced its push)', () => {
    pushToDataLayer({ type: 'form_view', form: 'search' })
    expect(host.dataLayer).toEqual([{ event: 'offer_widget_form_view', form: 'search' }])
    const seen: unknown[] = []
    host.dataLayer = [{ event: 'gtm.js' }]
    ;(host.dataLayer as { push: (...items: unknown[]) => number }).push = (...items) => seen.push(...items)
    pushToDataLayer({ type: 'offer_click', source: 'offer-search', offer: offer(1, 1) })
    expect(seen.map((entry) => (entry as { event?: string }).event)).toEqual([undefined, 'select_item'])
  })
})
