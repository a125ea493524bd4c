/**
 * @module Cache-Control for static files: content-hashed or versioned assets never change, so browsers
 * keep them for a year; HTML is revalidated every time so a deploy shows at once; the rest briefly.
 */

export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const REVALIDATE = 'no-cache'
export const SHORT = 'public, max-age=300'
/**
 * The stable embed URL (`/embed/v0.1/offer-widget.js`): its bytes change with each deploy, so a browser
 * keeps them 5 minutes, then may use them once more for up to a day while it revalidates in the background
 * (a 304 by `ETag` when nothing changed): a deploy reaches a returning visitor on their next page view,
 * and the visitor never waits on the check. Every bundle still served works with this BFF
 * (docs/upgrading.md), so the one stale use is safe.
 */
export const FOLLOWS_DEPLOYS = 'public, max-age=300, stale-while-revalidate=86400'

/** Vite's `name-[hash].ext` (8+ url-safe characters), or a `/1.2.3/` version directory. */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.(?:m?js|css|woff2?|svg|png|jpe?g|webp|avif|gif|ico|map|wasm)$/
const VERSIONED = /\/v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\//

export function cacheControlFor(path: string): string {
  if (/\.html?$/i.test(path)) return REVALIDATE
  if (HASHED.test(path) || VERSIONED.test(path)) return IMMUTABLE
  return SHORT
}
