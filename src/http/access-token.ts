/**
 * @module Access tokens: the capability a browser needs to poll one rate table, issued with the 201 and
 * checked by the poll guard of the search resource (search-resource.ts), whichever engine runs the search.
 * An HMAC-SHA256 over the uuid and an expiry, so a server stays stateless across replicas and a token for
 * one search never opens another.
 */
import type { AccessTokens } from './request-services.ts'
import { createTokenMac } from './signed-token.ts'
import type { Clock } from './timers.ts'

/** docs/offer-search-api.md polls for 15 s; the default leaves room for slow visitors and re-renders. */
const DEFAULT_ACCESS_TOKEN_TTL_MS = 30 * 60 * 1000
/** The issue requires at least 15 minutes, so a poll never outlives its token. */
export const MIN_ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000

export interface AccessTokenOptions {
  ttlMs?: number
  /** The clock of expiries; `systemTimers` by default. */
  timers?: Clock
}

const TOKEN_PATTERN = /^v1\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/

export function createAccessTokens(secret: string, options: AccessTokenOptions = {}): AccessTokens {
  const ttlMs = options.ttlMs ?? DEFAULT_ACCESS_TOKEN_TTL_MS
  if (ttlMs < MIN_ACCESS_TOKEN_TTL_MS) {
    throw new Error(`createAccessTokens: ttlMs must be at least ${MIN_ACCESS_TOKEN_TTL_MS} (15 minutes)`)
  }
  const tokenMac = createTokenMac(secret, {
    name: 'createAccessTokens',
    ...(options.timers && { timers: options.timers }),
  })
  // The purpose prefix keeps these MACs from ever matching another use of the same secret.
  const message = (uuid: string, expiresAt: number) => `offer-search-access\n${uuid}\n${expiresAt}`

  return {
    issue(uuid) {
      const expiresAt = tokenMac.expiresAt(ttlMs)
      return `v1.${expiresAt}.${tokenMac.sign(message(uuid, expiresAt))}`
    },
    verify(token, uuid) {
      if (typeof token !== 'string') return false
      const match = TOKEN_PATTERN.exec(token)
      if (!match) return false
      const expiresAt = Number(match[1])
      return tokenMac.verify(message(uuid, expiresAt), match[2] as string, expiresAt)
    },
  }
}
