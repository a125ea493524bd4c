/**
 * @module The one gate every upstream URL passes before it becomes a link, an image or a pixel.
 */

/**
 * Returns the URL normalised when it is absolute `http:` or `https:`, else `undefined`. Upstream and partner
 * text is untrusted: a `javascript:` or `data:` URL in an href or src would run or smuggle content.
 */
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
