/**
 * @module Cache-Control for static files: content-hashed or versioned assets never change, so browsers
 * keep them for a year; HTML is revalidated every time so a deploy shows at once; the rest briefly.
 */

export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const REVALIDATE = 'no-cache'
export const SHORT = 'public, max-age=300'

/** Vite's `name-[hash].ext` (8+ url-safe characters), or a `/1.2.3/` version directory. */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.(?:m?js|css|woff2?|svg|png|jpe?g|webp|avif|gif|ico|map|wasm)$/
const VERSIONED = /\/v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\//

export function cacheControlFor(path: string): string {
  if (/\.html?$/i.test(path)) return REVALIDATE
  if (HASHED.test(path) || VERSIONED.test(path)) return IMMUTABLE
  return SHORT
}
