/**
 * @module The one expiring-token signer, through both callers: one secret rule (the click signer took 16
 * characters, access tokens 32), and tokens signed by the old code still verify (a deploy keeps links alive).
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createAccessTokens } from '../../src/http/access-token.ts'
import { MIN_SECRET_LENGTH } from '../../src/http/server-secret.ts'
import { createClickSigner } from '../../src/marketplace/clicks/click-token.ts'
import { testSecret } from '../support/test-secret.ts'

const OFFER = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'
const SECRET = testSecret('x', MIN_SECRET_LENGTH)
const NOW = 1_800_000_000_000

describe('one secret rule', () => {
  const signers: [string, (secret: string) => unknown][] = [
    ['access tokens', (secret) => createAccessTokens(secret)],
    ['click tokens', (secret) => createClickSigner(secret)],
  ]
  it.each(signers)('%s refuse secrets under 32 characters and name the fix', (_, make) => {
    for (const length of [0, 16, 20, 31])
      expect(() => make('s'.repeat(length))).toThrow(/at least 32.*openssl/)
    expect(() => make(testSecret('s', 32))).not.toThrow()
  })
})

describe('tokens issued before the shared signer still verify', () => {
  it('a click token in the old format', () => {
    const key = createHmac('sha256', SECRET).update('offer-widget/click-token/v1').digest()
    const payload = `${OFFER}.${Math.ceil((NOW + 60_000) / 1000).toString(36)}`
    const old = `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`
    const signer = createClickSigner(SECRET, { timers: { now: () => NOW }, ttlMs: 60_000 })
    expect(signer.sign(OFFER)).toBe(old)
    expect(signer.verify(old)).toBe(OFFER)
    expect(signer.verify(old, 'impression')).toBeUndefined()
  })

  it('an access token in the old format', () => {
    const expiresAt = Math.ceil((NOW + 30 * 60_000) / 1000)
    const mac = createHmac('sha256', SECRET)
      .update(`offer-search-access\n${OFFER}\n${expiresAt}`)
      .digest('base64url')
    const tokens = createAccessTokens(SECRET, { timers: { now: () => NOW } })
    expect(tokens.issue(OFFER)).toBe(`v1.${expiresAt}.${mac}`)
    expect(tokens.verify(`v1.${expiresAt}.${mac}`, OFFER)).toBe(true)
    expect(
      createAccessTokens(SECRET, { timers: { now: () => expiresAt * 1000 } }).verify(
        `v1.${expiresAt}.${mac}`,
        OFFER,
      ),
    ).toBe(false)
  })
})
