/** @module Exponential backoff for repeated 429 and 5xx answers (docs/offer-search-api.md: "e.g. 1 s, 2 s, 4 s"). */

export interface BackoffOptions {
  baseMs?: number
  maxMs?: number
}

/** Delay before retry number `failureCount + 1`: 1 s, 2 s, 4 s, then 4 s again (the window is only 15 s). */
export function backoffDelay(
  failureCount: number,
  { baseMs = 1000, maxMs = 4000 }: BackoffOptions = {},
): number {
  const n = Math.max(0, Math.floor(failureCount))
  return Math.min(baseMs * 2 ** Math.min(n, 30), maxMs)
}
