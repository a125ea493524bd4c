/** @module Retry arithmetic: Retry-After in both RFC 9110 forms, full-jitter backoff capped. */
import { describe, expect, it } from 'vitest'
import { backoffDelay, parseRetryAfter, retryAfterSeconds } from '../../src/bff/retry.ts'

const NOW = Date.parse('2026-03-01T12:00:00Z')

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000)
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0)
  })
  it('reads an HTTP-date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', NOW)).toBe(5000)
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', NOW)).toBe(0)
  })
  it('caps both forms at 60 s: one header must not refuse a search for a day', () => {
    expect(parseRetryAfter('99999', NOW)).toBe(60_000)
    expect(parseRetryAfter('Sun, 08 Mar 2026 12:00:00 GMT', NOW)).toBe(60_000)
    expect(parseRetryAfter('60', NOW)).toBe(60_000)
  })
  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined()
    expect(parseRetryAfter('soon', NOW)).toBeUndefined()
    expect(parseRetryAfter('-1', NOW)).toBeUndefined()
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined()
  })
})

describe('backoffDelay', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 2000, budgetMs: 10_000 }
  it('doubles the ceiling per retry up to the cap (docs/offer-search-api.md: "exponential, e.g. 1 s, 2 s, 4 s")', () => {
    const top = () => 0.999999
    expect(backoffDelay(0, policy, top)).toBe(249)
    expect(backoffDelay(1, policy, top)).toBe(499)
    expect(backoffDelay(2, policy, top)).toBe(999)
    expect(backoffDelay(9, policy, top)).toBe(1999)
  })
  it('jitters over the whole range from 0', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0)
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1000)
  })
})

describe('retryAfterSeconds', () => {
  it('never tells a client to retry in 0 seconds', () => {
    expect(retryAfterSeconds(0)).toBe('1')
    expect(retryAfterSeconds(undefined)).toBe('1')
    expect(retryAfterSeconds(2500)).toBe('3')
  })
})
