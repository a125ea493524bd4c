/** @module Access tokens: bound to one uuid, expire no sooner than 15 minutes, forged or altered ones fail. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAccessTokens, MIN_ACCESS_TOKEN_TTL_MS } from '../../src/http/access-token.ts'
import { testSecret } from '../support/test-secret.ts'

const SECRET = testSecret('x')
const UUID = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'
const OTHER = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e40'

describe('createAccessTokens', () => {
  it('verifies a token for the uuid it was issued for, and for no other uuid', () => {
    const tokens = createAccessTokens(SECRET, { timers: { now: () => 1_000_000 } })
    const token = tokens.issue(UUID)
    expect(tokens.verify(token, UUID)).toBe(true)
    expect(tokens.verify(token, OTHER)).toBe(false)
  })

  it('stays valid for at least 15 minutes and fails after its expiry', () => {
    let now = 1_000_000
    const tokens = createAccessTokens(SECRET, { timers: { now: () => now } })
    const token = tokens.issue(UUID)
    now += MIN_ACCESS_TOKEN_TTL_MS - 1
    expect(tokens.verify(token, UUID)).toBe(true)
    now += 24 * 60 * 60 * 1000
    expect(tokens.verify(token, UUID)).toBe(false)
  })

  it('refuses a ttl under 15 minutes and a short secret', () => {
    expect(() => createAccessTokens(SECRET, { ttlMs: 60_000 })).toThrow(/15 minutes/)
    expect(() => createAccessTokens('short')).toThrow(/32 characters/)
  })

  it('refuses a token made with another secret, and a token whose expiry was pushed forward', () => {
    const tokens = createAccessTokens(SECRET, { timers: { now: () => 0 } })
    const forged = createAccessTokens(testSecret('y'), { timers: { now: () => 0 } }).issue(UUID)
    expect(tokens.verify(forged, UUID)).toBe(false)
    const [version, expiry, mac] = tokens.issue(UUID).split('.')
    expect(tokens.verify(`${version}.${Number(expiry) + 3600}.${mac}`, UUID)).toBe(false)
  })

  it('accepts only the canonical spelling of the signature (base64url padding bits flipped is a forgery)', () => {
    const tokens = createAccessTokens(SECRET)
    const token = tokens.issue(UUID)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = alphabet.indexOf(token.at(-1) as string)
    const sibling = `${token.slice(0, -1)}${alphabet[last ^ 1]}`
    const signature = (t: string) => Buffer.from(t.split('.')[2] as string, 'base64url')
    // Same bytes once decoded: only a text comparison tells them apart.
    expect(signature(sibling).equals(signature(token))).toBe(true)
    expect(tokens.verify(sibling, UUID)).toBe(false)
    expect(tokens.verify(token, UUID)).toBe(true)
  })

  it('never accepts arbitrary strings, and never throws on them', () => {
    const tokens = createAccessTokens(SECRET)
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (token) => {
        expect(tokens.verify(token, UUID)).toBe(false)
      }),
    )
    expect(tokens.verify(undefined, UUID)).toBe(false)
    expect(tokens.verify(null, UUID)).toBe(false)
  })
})
