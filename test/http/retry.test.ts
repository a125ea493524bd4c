/** @module The `Retry-After` value the BFF sends (the arithmetic it reads with is tested in test/contract). */
import { describe, expect, it } from 'vitest'
import { retryAfterSeconds } from '../../src/http/retry.ts'

describe('retryAfterSeconds', () => {
  it('never tells a client to retry in 0 seconds', () => {
    expect(retryAfterSeconds(0)).toBe('1')
    expect(retryAfterSeconds(undefined)).toBe('1')
    expect(retryAfterSeconds(2500)).toBe('3')
  })
})
