/**
 * @module The one "absolute http(s) URL" predicate: config, the embed's data attributes, the rate-table sifter
 * and every link or image the widget renders. Upstream and partner text is untrusted: a `javascript:` or
 * `data:` URL in an href or src would run or smuggle content. Browser-safe (the WHATWG `URL`; zod/mini for
 * the field schema, which a bundle without it shakes out). Field schemas of config, the registry and the
 * partner kit take `httpUrlField`.
 */
import * as z from 'zod/mini'

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

/**
 * A widget's BFF endpoint: `''` (the page's own origin), a path on it, or an absolute http(s) URL. A path is
 * one `/` followed by anything but a second `/` or `\\` (`//host` and `/\\host` name another origin), with no
 * tab or line break anywhere (the URL parser drops them, so `/<tab>/host` is `//host` once parsed).
 */
export function isEndpoint(value: string): boolean {
  if (value === '') return true
  if (value.startsWith('/')) return SAME_ORIGIN_PATH.test(value)
  return isHttpUrl(value)
}

const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\t\n\r]*$/

/**
 * The same rule for a configured field: a zod/mini schema of an absolute http(s) URL (https only with
 * `httpsOnly`; a DNS host name only with `hostname`), whose error names the field and, given one, an example.
 */
export function httpUrlField(
  name: string,
  options: { httpsOnly?: boolean; hostname?: boolean; example?: string } = {},
) {
  const scheme = options.httpsOnly ? 'https' : 'http(s)'
  return z.url({
    protocol: options.httpsOnly ? /^https$/ : /^https?$/,
    ...(options.hostname ? { hostname: z.regexes.hostname } : {}),
    error: `${name} must be an absolute ${scheme} URL${options.example ? `, e.g. ${options.example}` : ''}`,
  })
}
