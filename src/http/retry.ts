/**
 * @module The BFF's retry policy for upstream calls. The arithmetic is the contract's, shared with the
 * widget: `Retry-After` in src/contract/retry-after.ts, full-jitter backoff in src/contract/backoff.ts.
 */
import type { BackoffPolicy } from '../contract/backoff.ts'

export interface RetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included; 1 means no retry. */
  maxAttempts: number
  /** No retry is started when its wait would end later than this after the first attempt began. */
  budgetMs: number
}

/** Whole seconds for a `Retry-After` header we send: never 0, so a client cannot spin. */
export function retryAfterSeconds(ms: number | undefined): string {
  return String(Math.max(1, Math.ceil((ms ?? 1000) / 1000)))
}
