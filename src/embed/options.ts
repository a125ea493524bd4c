/**
 * @module What the script tag accepts: the `<OfferWidget>` props a page can pass as data (no pixel tracker,
 * no style injection: the embed owns both), plus the callbacks of the JS API.
 */
import type { OfferWidgetProps } from '../widget/offer-widget-props.ts'

export type EmbedOptions = Omit<OfferWidgetProps, 'pixelTracker' | 'injectStyles'>

/** What `mount()` returns. */
export interface MountHandle {
  /** Merges these options into the current ones and re-renders. */
  update(options: EmbedOptions): void
  /** Removes the widget and frees what it held; calling it again does nothing. */
  unmount(): void
}

/** DOM events the host element emits (they bubble), for pages that cannot pass callbacks. */
export const EMBED_EVENTS = {
  onSearchCreated: 'offer-widget:search-created',
  onOffersShown: 'offer-widget:offers-shown',
  onOfferClick: 'offer-widget:offer-click',
  onComplete: 'offer-widget:complete',
  onError: 'offer-widget:error',
  /** Every event of the contract (docs/events.md), `detail` the event. */
  onEvent: 'offer-widget:event',
} as const
export type EmbedCallback = keyof typeof EMBED_EVENTS
