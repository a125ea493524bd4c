/**
 * @module `Retry-After` read as RFC 9110 defines it (delay-seconds or an HTTP-date in its three formats),
 * capped at 60 s, by the widget and the BFF alike.
 */
import { describe, expect, it } from 'vitest'
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/contract/retry-after.ts'

const NOW = Date.parse('2026-03-01T12:00:00Z')

describe('parseRetryAfter', () => {
  it('reads delay-seconds, without surrounding whitespace', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0)
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0)
    expect(parseRetryAfter('3', NOW)).toBe(3000)
    expect(parseRetryAfter(' 12 ', NOW)).toBe(12_000)
  })

  it('reads an HTTP-date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', NOW)).toBe(5000)
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', NOW)).toBe(0)
  })

  it('reads the two obsolete HTTP-date formats a recipient must accept (RFC 9110 section 5.6.7)', () => {
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:00:07 GMT', NOW)).toBe(7000)
    expect(parseRetryAfter('Sun Mar  1 12:00:09 2026', NOW)).toBe(9000)
    expect(parseRetryAfter('Sun Mar 01 12:00:09 2026', NOW)).toBe(9000)
  })

  it('reads a two-digit year more than 50 years ahead as the past century', () => {
    // 1994 is long past, so the wait is 0; read as 2094 it would be the 60 s cap.
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(0)
    expect(parseRetryAfter('Monday, 01-Mar-27 12:00:00 GMT', NOW)).toBe(MAX_RETRY_AFTER_MS)
  })

  it('caps both forms at 60 s: one header must not refuse a search for a day', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(60_000)
    expect(parseRetryAfter('99999', NOW)).toBe(60_000)
    expect(parseRetryAfter('Sun, 08 Mar 2026 12:00:00 GMT', NOW)).toBe(60_000)
    expect(parseRetryAfter('60', NOW)).toBe(60_000)
  })

  it.each([
    null,
    undefined,
    '',
    '-1',
    '+3',
    '1.5',
    'soon',
    '3 s',
    '0x10',
    // Not HTTP-dates: ISO 8601, lower case, no GMT, a local offset, a day that does not exist, 24:00.
    '2026-03-01T12:00:05Z',
    'sun, 01 mar 2026 12:00:05 gmt',
    'Sun, 01 Mar 2026 12:00:05',
    'Sun, 01 Mar 2026 12:00:05 +0100',
    'Tue, 31 Feb 2026 12:00:05 GMT',
    'Sun, 01 Mar 2026 24:00:00 GMT',
  ])('ignores %j, so the caller backs off', (junk) => {
    expect(parseRetryAfter(junk, NOW)).toBeUndefined()
  })
})
