/**
 * @module `Retry-After` as RFC 9110 (section 10.2.3) defines it, read by the widget and the BFF alike:
 * delay-seconds or an HTTP-date in any of its three formats (section 5.6.7), in milliseconds to wait.
 */

/**
 * The longest wait a `Retry-After` is honoured for. A larger value (`99999`) is read as this: one header
 * must not keep a search refused for a day (docs/offer-search-api.md#retry-after-cap). The widget's polling
 * window is shorter still, so for it the cap never shows.
 */
export const MAX_RETRY_AFTER_MS = 60_000

/**
 * The three HTTP-date formats a recipient must accept, each captured in its own order: IMF-fixdate
 * `Sun, 06 Nov 1994 08:49:37 GMT` (day, month, year, time), obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
 * (the same with a two-digit year) and asctime `Sun Nov  6 08:49:37 1994` (month, day, time, year; GMT).
 * HTTP-date is case-sensitive; anything looser (ISO 8601, an offset) is not guessed at.
 */
const HTTP_DATE =
  /^[A-Z][a-z]{2}(?:, (\d\d) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d) GMT|[a-z]*day, (\d\d)-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d\d) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d) GMT| (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ \d]\d) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d) (\d{4}))$/

/** Epoch ms of an HTTP-date, or `undefined` when `text` is none of the three formats or no real day. */
function parseHttpDate(text: string, nowMs: number): number | undefined {
  const m = HTTP_DATE.exec(text)
  if (!m) return undefined
  const [d, mo = '', y = '', h, mi, s] = m[1]
    ? m.slice(1, 7)
    : m[7]
      ? m.slice(7, 13)
      : [m[14], m[13], m[18], m[15], m[16], m[17]]
  let year = Number(y)
  if (y.length === 2) {
    // RFC 9110: a two-digit year more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(nowMs).getUTCFullYear()
    year += thisYear - (thisYear % 100)
    if (year > thisYear + 50) year -= 100
  }
  const month = 'JanFebMarAprMayJunJulAugSepOctNovDec'.indexOf(mo) / 3
  const at = Date.UTC(year, month, Number(d), Number(h), Number(mi), Number(s))
  // Date.UTC rolls 31 Feb over into March: such a date is unreadable, not another day.
  return new Date(at).getUTCDate() === Number(d) ? at : undefined
}

/**
 * Milliseconds to wait from a `Retry-After` value, at most `MAX_RETRY_AFTER_MS`; a date in the past means
 * now (0). `undefined` when absent or unreadable, so the caller backs off on its own.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined
  // A field value is read without the whitespace around it (RFC 9110 section 5.5).
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000)
  const at = parseHttpDate(text, nowMs)
  return at === undefined ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - nowMs))
}
