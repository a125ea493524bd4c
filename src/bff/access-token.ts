/**
 * @module Access tokens: the capability a browser needs to poll one rate table. An HMAC-SHA256 over the
 * uuid and an expiry, so the BFF stays stateless across replicas and a token for one search never opens
 * another.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto'

/** docs/offer-search-api.md polls for 15 s; the default leaves room for slow visitors and re-renders. */
export const DEFAULT_ACCESS_TOKEN_TTL_MS = 30 * 60 * 1000
/** The issue requires at least 15 minutes, so a poll never outlives its token. */
export const MIN_ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000

export interface AccessTokens {
  /** A token for this uuid, valid until now + ttl. */
  issue(uuid: string): string
  /** True only for an unexpired token issued for exactly this uuid with this secret. */
  verify(token: string | undefined | null, uuid: string): boolean
}

export interface AccessTokenOptions {
  ttlMs?: number
}

const TOKEN_PATTERN = /^v1\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/

export function createAccessTokens(
  secret: string,
  now: () => number = Date.now,
  options: AccessTokenOptions = {},
): AccessTokens {
  if (secret.length < 32) throw new Error('createAccessTokens: the secret must be at least 32 characters')
  const ttlMs = options.ttlMs ?? DEFAULT_ACCESS_TOKEN_TTL_MS
  if (ttlMs < MIN_ACCESS_TOKEN_TTL_MS) {
    throw new Error(`createAccessTokens: ttlMs must be at least ${MIN_ACCESS_TOKEN_TTL_MS} (15 minutes)`)
  }
  // Imported once: a string key would be re-imported on every MAC.
  const key = createSecretKey(Buffer.from(secret, 'utf8'))
  // The purpose prefix keeps these MACs from ever matching another use of the same secret.
  const mac = (uuid: string, expiresAt: number) =>
    createHmac('sha256', key).update(`offer-search-access\n${uuid}\n${expiresAt}`).digest()

  return {
    issue(uuid) {
      const expiresAt = Math.ceil((now() + ttlMs) / 1000)
      return `v1.${expiresAt}.${mac(uuid, expiresAt).toString('base64url')}`
    },
    verify(token, uuid) {
      if (typeof token !== 'string') return false
      const match = TOKEN_PATTERN.exec(token)
      if (!match) return false
      const expiresAt = Number(match[1])
      // Compare the text, not decoded bytes: base64url's last character carries padding bits, so decoding
      // would accept several spellings of one signature.
      const given = Buffer.from(match[2] as string)
      const expected = Buffer.from(mac(uuid, expiresAt).toString('base64url'))
      // Compare before looking at the expiry so timing does not tell an expired token from a forged one.
      const valid = given.length === expected.length && timingSafeEqual(given, expected)
      return valid && expiresAt * 1000 > now()
    },
  }
}
