/**
 * @module The one HMAC signer of expiring tokens (browser access tokens, offer click/impression tokens): one
 * secret rule (`src/http/server-secret.ts`, what `SESSION_SECRET` requires), one MAC (HMAC-SHA-256, base64url), one
 * constant-time comparison and one expiry check. Callers keep their own wire format, so tokens issued before
 * a deploy still verify after it (access tokens live 30 minutes, click links a day).
 */
import { createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto'
import { keyedHash, purposeKey, requireLongSecret } from './server-secret.ts'
import { type Clock, systemTimers } from './timers.ts'

export interface TokenMac {
  /** The base64url HMAC of `message`. */
  sign(message: string): string
  /** Expiry in whole seconds since the epoch for a token issued now, valid for `ttlMs`. */
  expiresAt(ttlMs: number): number
  /**
   * True only for the right signature of `message` and an unexpired `expiresAt` (seconds). The signature is
   * compared first and as text: base64url's last character carries padding bits, so decoding would accept
   * several spellings of one signature, and timing must not tell an expired token from a forged one.
   */
  verify(message: string, signature: string, expiresAt: number): boolean
}

export interface TokenMacOptions {
  /** Who is asking, for the error message. */
  name: string
  /** A purpose label: the key becomes HMAC(secret, purpose), so a token never passes for another purpose. */
  purpose?: string
  /** The clock of expiries; `systemTimers` by default. */
  timers?: Clock
}

export function createTokenMac(secret: string, options: TokenMacOptions): TokenMac {
  requireLongSecret(secret, options.name)
  const timers = options.timers ?? systemTimers
  // Imported once: a string key would be re-imported on every MAC.
  const key: KeyObject = createSecretKey(
    options.purpose === undefined ? Buffer.from(secret, 'utf8') : purposeKey(secret, options.purpose),
  )
  const sign = (message: string) => keyedHash(key, message)
  return {
    sign,
    expiresAt: (ttlMs) => Math.ceil((timers.now() + ttlMs) / 1000),
    verify(message, signature, expiresAt) {
      const given = Buffer.from(signature)
      const expected = Buffer.from(sign(message))
      const valid = given.length === expected.length && timingSafeEqual(given, expected)
      return valid && expiresAt * 1000 > timers.now()
    },
  }
}
