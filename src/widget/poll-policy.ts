/**
 * @module When to poll again and when to retry a failed poll. docs/offer-search-api.md: "poll once per second for up to
 * 15 seconds. Stop when `pendingResponses` is empty"; 429 honours `Retry-After`, 429 and 5xx back off
 * exponentially inside the polling window; "a single 5xx is not a failed search".
 */
import { backoffDelay } from '../contract/backoff.ts'
import { isRetryable, OfferWidgetError } from './widget-error.ts'

export const POLL_INTERVAL_MS = 1000
export const POLL_WINDOW_MS = 15_000
/**
 * A second-look search runs two tiers, each with its own 12 s window
 * (docs/partner-interface.md#response-windows): first look, then second look from the moment its partners get the lead. Its polls
 * therefore go on past 15 s: 24 s of partner windows plus room for the settle.
 */
export const SECOND_LOOK_POLL_WINDOW_MS = 30_000

/** How long a search of `source` is polled. */
export function pollWindowMs(source: 'offer-search' | 'second-look'): number {
  return source === 'second-look' ? SECOND_LOOK_POLL_WINDOW_MS : POLL_WINDOW_MS
}

export interface PollState {
  /** Partners still awaited in the latest rate table; `undefined` before the first one arrived. */
  pendingCount: number | undefined
  /** Epoch ms after which no poll is sent: the search's creation plus the window. */
  deadline: number
  /** The poll gave up for good (a terminal error or the window closed). */
  stopped: boolean
}

/** The `refetchInterval` decision: 1000 ms while partners are pending inside the window, else stop. */
export function nextPollInterval(state: PollState, now: number): number | false {
  if (state.stopped) return false
  if (state.pendingCount === 0) return false
  if (now >= state.deadline) return false
  return POLL_INTERVAL_MS
}

/** Milliseconds to wait before retrying after `error`, the (0-based) `failureCount`-th failure. */
export function retryDelayFor(failureCount: number, error: unknown): number {
  if (error instanceof OfferWidgetError && error.retryAfterMs !== undefined) return error.retryAfterMs
  return backoffDelay(failureCount)
}

/** Retry a transient failure only while the window is open; a 404 or a bad body ends the search at once. */
export function shouldRetryPoll(error: unknown, now: number, deadline: number): boolean {
  return isRetryable(error) && now < deadline
}

/**
 * The wait actually scheduled. No request goes out sooner than asked (`Retry-After` is honoured): a wait
 * past the deadline is cut to the deadline, where the poll ends without sending anything.
 */
export function scheduledRetryDelay(
  failureCount: number,
  error: unknown,
  now: number,
  deadline: number,
): number {
  return Math.max(0, Math.min(retryDelayFor(failureCount, error), deadline - now))
}
