/**
 * @module The server-secret rule: one minimum length with the fix named, one purpose-key derivation, one
 * keyed hash; and the fingerprints already stored in ledgers (body hashes, partner lead-id hashes) come out
 * byte for byte as the v1 formulas made them, so nothing stored stops matching.
 */
import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  MIN_SECRET_LENGTH,
  purposeKey,
  requireLongSecret,
  secretWeakness,
} from '../../src/http/server-secret.ts'
import { createPartnerLeadIdHasher } from '../../src/marketplace/fan-out/partner-lead-id-hash.ts'
import { createBodyHasher } from '../../src/marketplace/intake/idempotency.ts'
import { testSecret } from '../support/test-secret.ts'

const SECRET = testSecret('s', MIN_SECRET_LENGTH)
const v1 = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest('base64url')

it('refuses a short secret naming who needs it and the fix', () => {
  expect(() => requireLongSecret('x'.repeat(MIN_SECRET_LENGTH - 1), 'lead sealer')).toThrow(
    'lead sealer: the secret must be at least 32 characters; use openssl rand -hex 32',
  )
  expect(() => requireLongSecret(SECRET, 'lead sealer')).not.toThrow()
})

it('derives a distinct key per purpose', () => {
  expect(purposeKey(SECRET, 'a/v1').equals(purposeKey(SECRET, 'b/v1'))).toBe(false)
  expect(purposeKey(SECRET, 'a/v1').equals(purposeKey(`${SECRET}x`, 'a/v1'))).toBe(false)
})

it('hashes partner lead ids and lead bodies exactly as the v1 formulas did', () => {
  const leadIdKey = createHmac('sha256', SECRET).update('offer-widget/partner-lead-id/v1').digest('hex')
  expect(createPartnerLeadIdHasher(SECRET)('app-123')).toBe(v1(leadIdKey, 'app-123'))
  expect(createPartnerLeadIdHasher(SECRET, 'explicit-key')('app-123')).toBe(v1('explicit-key', 'app-123'))
  const bodyKey = createHmac('sha256', SECRET).update('offer-widget/idempotency-body/v1').digest()
  expect(createBodyHasher(SECRET)({ b: 1, a: [2] })).toBe(v1(bodyKey, '{"a":[2],"b":1}'))
})

describe('keyboard walks and runs', () => {
  const WALK = /is mostly keyboard rows or alphabet and digit runs .*: it is not random/
  it.each([
    'qwertyuiopasdfghjklzxcvbnm123456',
    'asdfghjkl;qwertyuiop1234567890zxcvbnm',
    '1234567890qwertyuiop0987654321asdf',
    'abcdefghijklmnopqrstuvwxyz0123456789',
    'zyxwvutsrqponmlkjihgfedcba9876543210',
    'poiuytrewqlkjhgfdsamnbvcxz0987654321',
    'QWERTYuiopASDFghjklZXCVbnm!@#$%^&*()',
    'qwertyuiop-Xk7-asdfghjkl-1234567890zxcvbnm',
    'abcdefghij0123456789qrstuvwxyz9876',
  ])('refuses %j', (secret) => {
    expect(secretWeakness(secret)).toMatch(WALK)
    expect(() => requireLongSecret(secret, 'lead sealer')).toThrow(
      /^lead sealer: the secret is mostly keyboard rows .*; use openssl rand -hex 32$/,
    )
  })

  // The samples of this repository's tests, docs and e2e runs: labels with a run or two in them.
  it.each([
    ['e2e-cross-origin-secret-0123456789abcdef', MIN_SECRET_LENGTH],
    ['e2e-engines-cross-origin-0123456789abcdef', MIN_SECRET_LENGTH],
    ['e2e-Reports-Token-0123456789-abcdefghij', MIN_SECRET_LENGTH],
    ['test-secret-0123456789abcdef-0123', MIN_SECRET_LENGTH],
    ['test-secret-0123456789abcdef0123456789', MIN_SECRET_LENGTH],
    ['Zq9#kLm2vX8pQ4rT7wY1zA5bC3dE6fG0hJ', MIN_SECRET_LENGTH],
    ['change-me-to-64-random-characters-change-me-to-64-random-chars', MIN_SECRET_LENGTH],
    ['publisher-server-key-at-least-32-characters', MIN_SECRET_LENGTH],
    ['5f0c9e1a7b3d4c2e8f6a0b1c2d3e4f5a6b7c8d9e', MIN_SECRET_LENGTH],
    ['da1e549ae9e8bd9797dae74b1c80043e7951092e40f05090c240c798f5187197', MIN_SECRET_LENGTH],
    ['qwertyuiop/Xk7vR2mQ9zL4pT8wN3cF6hJ1bD5s', MIN_SECRET_LENGTH],
    ['acme-reports-token-0123456789', 16],
    ['a-token-0123456789abc', 16],
    ['acme-token-0123456789', 16],
    ['same-token-0123456789', 16],
  ])('accepts %j', (secret, minLength) => {
    expect(secretWeakness(secret, minLength)).toBeUndefined()
  })

  it('accepts what openssl rand -hex 32 and -base64 32 print (2,000 of each, seeded)', () => {
    for (let i = 0; i < 2_000; i++) {
      const bytes = createHash('sha256').update(`walk sample ${i}`).digest()
      expect(secretWeakness(bytes.toString('hex')), bytes.toString('hex')).toBeUndefined()
      expect(secretWeakness(bytes.toString('base64')), bytes.toString('base64')).toBeUndefined()
    }
  })
})
