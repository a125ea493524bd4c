/**
 * @module Retry arithmetic, pure so it is tested without a clock: `Retry-After` in both forms and
 * exponential backoff with full jitter (docs/offer-search-api.md: "back off exponentially, e.g. 1 s, 2 s, 4 s").
 */

export interface RetryPolicy {
  /** Attempts in all, the first included; 1 means no retry. */
  maxAttempts: number
  baseDelayMs: number
  maxDelayMs: number
  /** No retry is started when its wait would end later than this after the first attempt began. */
  budgetMs: number
}

/**
 * The longest wait an upstream `Retry-After` is honoured for. A larger value (`99999`) is read as this:
 * one header must not keep a search refused for a day across every replica.
 */
export const MAX_RETRY_AFTER_MS = 60_000

/**
 * Milliseconds to wait from `Retry-After`: delta-seconds (`120`) or an HTTP-date, at most
 * `MAX_RETRY_AFTER_MS`. `undefined` when absent or unreadable, so the caller falls back to backoff; a date
 * in the past means retry now (0).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000)
  // RFC 9110 HTTP-date always names a weekday and GMT; anything looser is ignored rather than guessed.
  if (!/^[A-Za-z]{3},? .*GMT$|^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} .*GMT$/.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - nowMs))
}

/** Full jitter: uniform in [0, min(cap, base * 2^retry)); `retry` counts from 0 for the first retry. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  return Math.floor(random() * ceiling)
}

/** Whole seconds for a `Retry-After` header we send: never 0, so a client cannot spin. */
export function retryAfterSeconds(ms: number | undefined): string {
  return String(Math.max(1, Math.ceil((ms ?? 1000) / 1000)))
}
