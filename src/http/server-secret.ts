/**
 * @module The server's secrets, one rule each: how long a secret must be (`SESSION_SECRET`,
 * `LEAD_ID_HASH_SECRET`, `SERVER_API_KEYS`, every key a token is signed with), how a key for one purpose
 * is derived from a secret (HMAC-SHA-256 of the purpose label, so no two purposes share a key), and the
 * keyed hash (HMAC-SHA-256, base64url) every fingerprint of ours is.
 */
import { createHmac, type KeyObject } from 'node:crypto'

/** The shortest secret accepted: 128 bits of hex; `openssl rand -hex 32` prints 64 characters (256 bits). */
export const MIN_SECRET_LENGTH = 32

/** What to do about a short or missing secret, in every message that names one. */
export const SECRET_FIX = 'use openssl rand -hex 32'

/** The fewest different characters a secret may have: 64 hex digits have about 16, a typed word far fewer. */
const MIN_DISTINCT_CHARACTERS = 10

/**
 * What makes `secret` weak, in words that follow its variable's name, or undefined when it is strong
 * enough: at least `minLength` characters, at least `MIN_DISTINCT_CHARACTERS` different ones, no spaces,
 * and not one short piece repeated (`abcabcabc...`). Length and variety are what a guesser pays for; a
 * random value from `openssl rand -hex 32` passes every time.
 */
export function secretWeakness(secret: string, minLength = MIN_SECRET_LENGTH): string | undefined {
  if (secret.length < minLength) return `must be at least ${minLength} characters`
  if (/\s/.test(secret)) return 'must not contain spaces'
  const distinct = new Set(secret).size
  if (distinct < MIN_DISTINCT_CHARACTERS) {
    return `has only ${distinct} different characters (at least ${MIN_DISTINCT_CHARACTERS}): it is not random`
  }
  for (let period = 1; period <= secret.length / 2; period++) {
    if (secret.length % period === 0 && secret.slice(0, period).repeat(secret.length / period) === secret) {
      return `repeats one ${period}-character piece: it is not random`
    }
  }
  return undefined
}

/** Throws, naming `who` and the fix, when `secret` is weak (`secretWeakness`). */
export function requireLongSecret(secret: string, who: string): void {
  const weakness = secretWeakness(secret)
  if (weakness !== undefined) throw new Error(`${who}: the secret ${weakness}; ${SECRET_FIX}`)
}

/** The key of one purpose (a versioned label such as `offer-widget/idempotency-body/v1`) under `secret`. */
export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest()
}

/** HMAC-SHA-256 of `data` under `key`, base64url. */
export function keyedHash(key: string | Buffer | KeyObject, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url')
}
