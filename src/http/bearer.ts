/**
 * @module Bearer credentials, one rule for every route that takes them (server keys, partner reports,
 * the sandbox's upstream tokens): the token of an `Authorization: Bearer <token>` header, and a matcher
 * that compares a presented token with every known secret in constant time over their SHA-256 digests, all
 * of them on every call, so the time taken says nothing about which secret came close.
 */
import { createHash, timingSafeEqual } from 'node:crypto'

const BEARER = /^Bearer\s+(\S+)\s*$/i

/** The token of `Authorization: Bearer <token>`; undefined when the header is absent or not that shape. */
export function bearerToken(header: string | undefined): string | undefined {
  return BEARER.exec(header ?? '')?.[1]
}

/** SHA-256 of a secret: what is kept and compared, never the secret itself. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/**
 * Matches a presented token against `secrets` (each with what it stands for); the first listed match wins,
 * so list the broadest credential last if two could be equal. Undefined for a missing or unknown token.
 */
export function createSecretMatcher<T>(
  secrets: ReadonlyArray<{ secret: string; value: T }>,
): (token: string | undefined) => T | undefined {
  const known = secrets.map(({ secret, value }) => ({ digest: secretDigest(secret), value }))
  return (token) => {
    // No token: nothing to compare (that it is missing is no secret).
    if (token === undefined) return undefined
    const presented = secretDigest(token)
    let found: T | undefined
    for (const entry of known) {
      if (timingSafeEqual(presented, entry.digest) && found === undefined) found = entry.value
    }
    return found
  }
}
