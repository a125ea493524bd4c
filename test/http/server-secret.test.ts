/**
 * @module The server-secret rule: one minimum length with the fix named, one purpose-key derivation, one
 * keyed hash; and the fingerprints already stored in ledgers (body hashes, partner lead-id hashes) come out
 * byte for byte as the v1 formulas made them, so nothing stored stops matching.
 */
import { createHmac } from 'node:crypto'
import { expect, it } from 'vitest'
import { MIN_SECRET_LENGTH, purposeKey, requireLongSecret } from '../../src/http/server-secret.ts'
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
