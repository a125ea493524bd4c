/**
 * @module Click tokens: signed offer ids that expire and refuse any tampering.
 */
import { describe, expect, it } from 'vitest'
import { createClickSigner } from '../../../src/marketplace/clicks/click-token.ts'

const OFFER = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'

describe('click tokens', () => {
  it('round-trip the offer id until they expire', () => {
    let now = 1_000_000
    const signer = createClickSigner('a-click-token-secret-of-32-chars+', {
      ttlMs: 60_000,
      timers: { now: () => now },
    })
    const token = signer.sign(OFFER)
    expect(signer.verify(token)).toBe(OFFER)
    now += 61_000
    expect(signer.verify(token)).toBeUndefined()
  })

  it('reject another key, another offer id, and a changed expiry', () => {
    const signer = createClickSigner('a-click-token-secret-of-32-chars+')
    const token = signer.sign(OFFER)
    expect(createClickSigner('another-click-token-secret-32-chars').verify(token)).toBeUndefined()
    const [id, expiry, mac] = token.split('.') as [string, string, string]
    expect(signer.verify(`${id.replace('1b9d', '1b9e')}.${expiry}.${mac}`)).toBeUndefined()
    expect(signer.verify(`${id}.${expiry}0.${mac}`)).toBeUndefined()
    expect(signer.verify('')).toBeUndefined()
  })
})
