/**
 * @module The polling decision and retry waits, as pure functions (the backoff and `Retry-After` arithmetic
 * they use is tested in test/contract). docs/offer-search-api.md: "Slow down, honor `Retry-After` when
 * present, back off exponentially"; "poll once per second for up to 15 seconds. Stop when
 * `pendingResponses` is empty."
 */
import { describe, expect, test } from 'vitest'
import {
  nextPollInterval,
  POLL_INTERVAL_MS,
  POLL_WINDOW_MS,
  retryDelayFor,
  scheduledRetryDelay,
  shouldRetryPoll,
} from '../../src/widget/poll-policy.ts'
import { OfferWidgetError } from '../../src/widget/widget-error.ts'

describe('nextPollInterval (the refetchInterval decision)', () => {
  const state = { pendingCount: 2, deadline: 15_000, stopped: false }
  test('1000 ms while partners are pending inside the window', () => {
    expect(nextPollInterval(state, 0)).toBe(POLL_INTERVAL_MS)
    expect(nextPollInterval({ ...state, pendingCount: undefined }, 14_999)).toBe(1000)
  })
  test('stops when no partner is pending, at the deadline, or when stopped', () => {
    expect(nextPollInterval({ ...state, pendingCount: 0 }, 0)).toBe(false)
    expect(nextPollInterval(state, 15_000)).toBe(false)
    expect(nextPollInterval({ ...state, stopped: true }, 0)).toBe(false)
  })
  test('the window is 15 s', () => {
    expect(POLL_WINDOW_MS).toBe(15_000)
  })
})

describe('retries', () => {
  const e503 = new OfferWidgetError('server', 'x', { status: 503 })
  const e429 = new OfferWidgetError('rate_limited', 'x', { status: 429, retryAfterMs: 7000 })
  test('429, 5xx and network errors retry inside the window; 404 and bad bodies do not', () => {
    expect(shouldRetryPoll(e503, 0, 15_000)).toBe(true)
    expect(shouldRetryPoll(e429, 0, 15_000)).toBe(true)
    expect(shouldRetryPoll(new OfferWidgetError('network', 'x'), 0, 15_000)).toBe(true)
    expect(shouldRetryPoll(e503, 15_000, 15_000)).toBe(false)
    expect(shouldRetryPoll(new OfferWidgetError('not_found', 'x'), 0, 15_000)).toBe(false)
    expect(shouldRetryPoll(new OfferWidgetError('invalid_response', 'x'), 0, 15_000)).toBe(false)
    expect(shouldRetryPoll(new Error('x'), 0, 15_000)).toBe(false)
  })
  test('Retry-After wins over backoff', () => {
    expect(retryDelayFor(0, e429)).toBe(7000)
    expect(retryDelayFor(1, e503)).toBe(2000)
  })
  test('a wait past the deadline is cut to the deadline (where nothing is sent)', () => {
    expect(scheduledRetryDelay(0, e429, 10_000, 15_000)).toBe(5000)
    expect(scheduledRetryDelay(0, e503, 10_000, 15_000)).toBe(1000)
  })
})
