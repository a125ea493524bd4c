/**
 * @module The one rule for bearer credentials: which headers carry a token, and a matcher that finds the
 * secret it equals (the first listed), nothing for a missing, malformed or unknown one.
 */
import { expect, it } from 'vitest'
import { bearerToken, createSecretMatcher } from '../../src/http/bearer.ts'

it('reads the token of Authorization: Bearer <token>, and nothing else', () => {
  expect(bearerToken('Bearer abc.DEF-123')).toBe('abc.DEF-123')
  expect(bearerToken('bearer   abc  ')).toBe('abc')
  for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Token abc']) {
    expect(bearerToken(header), String(header)).toBeUndefined()
  }
})

it('matches a token to the secret it equals, the first listed winning, and nothing else', () => {
  const match = createSecretMatcher([
    { secret: 'operator-secret-0123456789', value: 'operator' },
    { secret: 'partner-secret-0123456789', value: 'partner' },
    { secret: 'operator-secret-0123456789', value: 'shadowed' },
  ])
  expect(match('operator-secret-0123456789')).toBe('operator')
  expect(match('partner-secret-0123456789')).toBe('partner')
  expect(match('partner-secret-012345678')).toBeUndefined()
  expect(match('')).toBeUndefined()
  expect(match(undefined)).toBeUndefined()
  expect(createSecretMatcher([])('anything')).toBeUndefined()
})
