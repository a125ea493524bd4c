/**
 * @module The one "absolute http(s) URL" predicate: config, the embed's data attributes, the rate-table sifter
 * and every link or image the widget renders. Upstream and partner text is untrusted: a `javascript:` or
 * `data:` URL in an href or src would run or smuggle content. Browser-safe (only the WHATWG `URL`).
 */

/** The URL normalised (`URL.href`) when it is absolute `http:` or `https:`, else `undefined`. */
export function safeHttpUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return undefined
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined
}

/** True for an absolute http(s) URL. */
export function isHttpUrl(raw: unknown): boolean {
  return safeHttpUrl(raw) !== undefined
}
