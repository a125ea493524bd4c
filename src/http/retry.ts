/**
 * @module Retrying a server's outgoing call inside a time budget, on the injected clock: the policy and the
 * loop (the `Retry-After` we send back is `retryAfterHeader` in src/http/errors.ts). The arithmetic is the contract's, shared with the
 * widget: `Retry-After` in src/contract/retry-after.ts, full-jitter backoff in src/contract/backoff.ts.
 */
import { type BackoffPolicy, backoffDelay } from '../contract/backoff.ts'
import { sleepOn, type Timers } from './timers.ts'

export interface RetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included; 1 means no retry. */
  maxAttempts: number
  /** No retry is started when its wait would end later than this after the first attempt began. */
  budgetMs: number
}

/**
 * What one attempt came to: a value, or a failure that says whether another attempt is safe and how long
 * the other side asked to wait (its `Retry-After`), which takes the place of the backoff.
 */
export type AttemptResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: unknown; retryable: boolean; retryAfterMs?: number }

export interface RetryOptions {
  timers: Timers
  /** Full jitter for the backoff: uniform in [0, 1). */
  random: () => number
}

/**
 * Runs `attempt` (numbered from 1) until it succeeds; throws the last failure's `error` when it is not
 * retryable, when `maxAttempts` are spent, or when waiting for the next attempt would end past the budget.
 * An exception thrown by `attempt` ends the loop at once.
 */
export async function retryWithinBudget<T>(
  policy: RetryPolicy,
  options: RetryOptions,
  attempt: (attemptNo: number) => Promise<AttemptResult<T>>,
): Promise<T> {
  const { timers, random } = options
  const started = timers.now()
  for (let attemptNo = 1; ; attemptNo++) {
    const result = await attempt(attemptNo)
    if (result.ok) return result.value
    if (!result.retryable || attemptNo >= policy.maxAttempts) throw result.error
    const delay = result.retryAfterMs ?? backoffDelay(attemptNo - 1, policy, random)
    if (timers.now() + delay - started > policy.budgetMs) throw result.error
    await sleepOn(timers, delay)
  }
}
