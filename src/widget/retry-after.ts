/** @module Parses `Retry-After` (RFC 9110: delay-seconds or an HTTP-date) into milliseconds to wait. */

/**
 * Returns the wait in ms, or `undefined` when the header is absent or unreadable (the caller then backs
 * off on its own). A date in the past means "now": 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // Only the date forms HTTP allows contain a letter; a bare or signed number that failed above is junk.
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}
