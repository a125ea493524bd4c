/**
 * @module Delivers one event of the contract (widget-event.ts) to where the page asked: `onEvent`, and GA4's
 * `window.dataLayer` under `analytics="dataLayer"`. The widget and its loan application (a chunk of its
 * own) both call it, so the rule is written once.
 */
import { pushToDataLayer } from './data-layer.ts'
import type { EventSink, OfferWidgetEvent } from './widget-event.ts'

export function emitEvent(sink: EventSink, event: OfferWidgetEvent): void {
  sink.onEvent?.(event)
  if (sink.analytics === 'dataLayer') pushToDataLayer(event, sink.placement)
}
