/**
 * @module The widget's one event contract (docs/events.md): every step a publisher's analytics cares about,
 * as a discriminated union on `type`. What `onEvent` receives, what `offer-widget:event` carries as its
 * `detail`, and what `analytics="dataLayer"` maps to GA4 (data-layer.ts). No event carries visitor data:
 * form events name a field and an error kind, never a value typed.
 */
import type { OfferSource } from '../bff-client.ts'
import type { WidgetErrorKind } from '../widget-error.ts'

/** Which form: the insurance search form, or the second look's loan application. */
export type WidgetForm = 'search' | 'application'

/** An offer as events report it: where it sits on screen, and nothing of the visitor. */
export interface EventOffer {
  uuid: string
  /** Its slot on screen, 1-based from the top of the list. */
  position: number
  /** Its rank in the rate table (1 is the best); may differ from `position` while a card is held in place. */
  rank: number
  /** The carrier's or lender's name, as the card shows it. */
  name: string
  /** The product's display name, as the card shows it. */
  product: string
  /** The offer's `productType`, e.g. `AutomobileInsurance`. */
  productType: string
}

export type OfferWidgetEvent =
  /** A form appeared (each time it appears). */
  | { type: 'form_view'; form: WidgetForm }
  /** The visitor's first change to a field of a form on screen. */
  | { type: 'form_start'; form: WidgetForm; field: string }
  /** A form passed its checks and was sent. */
  | { type: 'form_submit'; form: WidgetForm }
  /** A field failed a check: `required` when left blank, `invalid` when what it holds is not taken. */
  | { type: 'form_field_error'; form: WidgetForm; field: string; error: 'required' | 'invalid' }
  | { type: 'search_created'; source: OfferSource; uuid: string }
  | { type: 'search_complete'; source: OfferSource; uuid: string; offerCount: number; incomplete: boolean }
  /** Offers new to the screen, each once per search. */
  | { type: 'offers_shown'; source: OfferSource; offers: EventOffer[] }
  | { type: 'offer_click'; source: OfferSource; offer: EventOffer }
  /** "Show N more": `revealed` offers came on screen. */
  | { type: 'show_more'; source: OfferSource; revealed: number }
  /** A card's "More details" opened (`open: true`) or "Fewer details" closed it. */
  | { type: 'more_details'; source: OfferSource; open: boolean; offer: EventOffer }
  /** The advertiser disclosure was opened: its sentence (`text`) or the publisher's page (`link`). */
  | { type: 'disclosure_open'; via: 'text' | 'link' }
  /** The search failed; `status` and `code` when the BFF answered. */
  | { type: 'error'; kind: WidgetErrorKind; status: number | undefined; code: string | undefined }

export type OfferWidgetEventType = OfferWidgetEvent['type']

/** Where events go: `onEvent`, and GA4's `window.dataLayer` when `analytics` says so. */
export interface EventSink {
  onEvent?: ((event: OfferWidgetEvent) => void) | undefined
  analytics?: 'dataLayer' | undefined
  /** Names the list of GA4's item events (docs/placements.md). */
  placement?: string | undefined
}
