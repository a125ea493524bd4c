/**
 * @module Impression pixels rendered as `<img>` tags in the widget's first markup (the server's HTML, and the
 * hydration render that adopts it): the browser fires them as it parses, with or without the bundle, so the
 * tracker must never fire those (offer uuid, URL) pairs again. Only the first rate table's offers get tags;
 * offers arriving later fire through the tracker as usual.
 */
import type { DisplayOffer } from './display-rules.ts'
import type { PixelTracker } from './pixel-tracker.ts'

export interface RenderedPixel {
  offerUuid: string
  url: string
}

/** Every pixel of the offers on screen in the first render, in display order. */
export function renderedPixelsOf(offers: readonly DisplayOffer[]): RenderedPixel[] {
  return offers.flatMap((offer) => offer.pixelUrls.map((url) => ({ offerUuid: offer.uuid, url })))
}

/** The tracker, minus the pairs the markup already fired. */
export function skippingRendered(tracker: PixelTracker, rendered: readonly RenderedPixel[]): PixelTracker {
  if (rendered.length === 0) return tracker
  const fired = new Set(rendered.map((pixel) => `${pixel.offerUuid}\n${pixel.url}`))
  return {
    track(offerUuid, urls) {
      return tracker.track(
        offerUuid,
        urls.filter((url) => !fired.has(`${offerUuid}\n${url}`)),
      )
    },
  }
}
