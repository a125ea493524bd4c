/**
 * @module Exponential backoff for repeated 429 and 5xx answers, shared by the widget and the BFF
 * (docs/offer-search-api.md: "back off exponentially (1, 2, 4 s)").
 */

export interface BackoffPolicy {
  baseDelayMs: number
  maxDelayMs: number
}

/** The documented client backoff: 1 s, 2 s, 4 s, then 4 s again (a polling window is only 15 s). */
export const CLIENT_BACKOFF: BackoffPolicy = { baseDelayMs: 1000, maxDelayMs: 4000 }

/**
 * The wait before retry number `retry + 1` (`retry` counts from 0): the ceiling `min(max, base * 2^retry)`
 * as it is, or with `random` full jitter, uniform in [0, ceiling), so that many replicas retrying one
 * upstream spread out.
 */
export function backoffDelay(
  retry: number,
  policy: BackoffPolicy = CLIENT_BACKOFF,
  random?: () => number,
): number {
  // The exponent is capped: 2 ** 1024 is Infinity, and a zero base times Infinity would be NaN.
  const n = Math.min(Math.max(0, Math.floor(retry)), 30)
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n)
  return random ? Math.floor(random() * ceiling) : ceiling
}
