/**
 * @module The server's secrets, one rule each: how long a secret must be (`SESSION_SECRET`,
 * `LEAD_ID_HASH_SECRET`, `SERVER_API_KEYS`, every key a token is signed with), how a key for one purpose
 * is derived from a secret (HMAC-SHA-256 of the purpose label, so no two purposes share a key), and the
 * keyed hash (HMAC-SHA-256, base64url) every fingerprint of ours is.
 */
import { createHmac, type KeyObject } from 'node:crypto'

/** The shortest secret accepted: 256 bits of hex, as `openssl rand -hex 32` prints. */
export const MIN_SECRET_LENGTH = 32

/** What to do about a short or missing secret, in every message that names one. */
export const SECRET_FIX = 'use openssl rand -hex 32'

/** Throws, naming `who` and the fix, when `secret` is shorter than `MIN_SECRET_LENGTH`. */
export function requireLongSecret(secret: string, who: string): void {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`${who}: the secret must be at least ${MIN_SECRET_LENGTH} characters; ${SECRET_FIX}`)
  }
}

/** The key of one purpose (a versioned label such as `offer-widget/idempotency-body/v1`) under `secret`. */
export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest()
}

/** HMAC-SHA-256 of `data` under `key`, base64url. */
export function keyedHash(key: string | Buffer | KeyObject, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url')
}
