/**
 * @module Impression pixels, fired exactly once per page view for each (offer uuid, URL) pair, whatever
 * React does with renders, StrictMode and later polls.
 */
import { safeHttpUrl } from './safe-url.ts'

export interface PixelTracker {
  /** Fires the pixels not fired yet for this offer; returns the URLs fired by this call. */
  track(offerUuid: string, urls: readonly string[]): string[]
}

export type FirePixel = (url: string) => void

/** A tracker with its own memory; the page-wide one is {@link pageTracker}. */
export function createPixelTracker(fire: FirePixel = firePixelImage): PixelTracker {
  const fired = new Set<string>()
  return {
    track(offerUuid, urls) {
      const now: string[] = []
      for (const raw of urls) {
        const url = safeHttpUrl(raw)
        if (url === undefined) continue
        // A newline cannot appear in a parsed URL's href, so the pair key is unambiguous.
        const key = `${offerUuid}\n${url}`
        if (fired.has(key)) continue
        fired.add(key)
        now.push(url)
        fire(url)
      }
      return now
    },
  }
}

// Held until the request settles: an unreferenced Image may be collected and its request dropped.
const inFlight = new Set<HTMLImageElement>()

/**
 * docs/offer-search-api.md leaves the request method open; an image GET is what pixel endpoints expect. A plain no-CORS
 * image request, as every ad tag fires one: trackers send no `Access-Control-Allow-Origin` (a CORS request
 * would fail and log an error on the publisher's page) and often answer with a redirect, which an image
 * request follows to the last hop. The referrer is cut to the origin across sites.
 */
export function firePixelImage(url: string): void {
  if (typeof Image === 'undefined') return
  const image = new Image()
  image.referrerPolicy = 'strict-origin-when-cross-origin'
  image.decoding = 'async'
  const done = () => inFlight.delete(image)
  image.onload = done
  image.onerror = done
  inFlight.add(image)
  image.src = url
}

let shared: PixelTracker | undefined

/** The tracker for this page view: created on first use, so importing the module touches no `window`. */
export function pageTracker(): PixelTracker {
  shared ??= createPixelTracker()
  return shared
}
