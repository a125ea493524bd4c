/**
 * @module Exponential backoff (docs/offer-search-api.md: "back off exponentially (1, 2, 4 s)"): the
 * widget's plain ceiling and the BFF's full jitter over it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backoffDelay, CLIENT_BACKOFF } from '../../src/contract/backoff.ts'

describe('backoffDelay without jitter (the widget)', () => {
  it('1 s, 2 s, 4 s, then stays at 4 s', () => {
    expect(CLIENT_BACKOFF).toEqual({ baseDelayMs: 1000, maxDelayMs: 4000 })
    expect([0, 1, 2, 3, 4, 50].map((n) => backoffDelay(n))).toEqual([1000, 2000, 4000, 4000, 4000, 4000])
  })

  it('property: never below 1 s, never above the cap, never shrinking', () => {
    fc.assert(
      fc.property(fc.nat(1000), (n) => {
        expect(backoffDelay(n)).toBeGreaterThanOrEqual(1000)
        expect(backoffDelay(n)).toBeLessThanOrEqual(4000)
        expect(backoffDelay(n + 1)).toBeGreaterThanOrEqual(backoffDelay(n))
      }),
    )
  })
})

describe('backoffDelay with full jitter (the BFF)', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 2000, budgetMs: 10_000 }

  it('doubles the ceiling per retry up to the cap', () => {
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
