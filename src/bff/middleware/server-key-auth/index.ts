/**
 * @module `Authorization: Bearer <key>` against `SERVER_API_KEYS` (compared as every bearer credential is,
 * `src/http/bearer.ts`), and only a short fingerprint (`keyId`, never the key) is kept on the context for
 * per-key limits and logs.
 */
import type { MiddlewareHandler } from 'hono'
import { bearerToken, createSecretMatcher, secretDigest } from '../../../http/bearer.ts'
import { httpError } from '../../../http/errors.ts'

export interface ServerKeyAuthOptions {
  keys: readonly string[]
}

export type ServerKeyVariables = { serverKeyId: string }

/** A key's fingerprint: 12 hex digits of its SHA-256, safe to log and to use as a limiter key. */
export function serverKeyId(key: string): string {
  return secretDigest(key).toString('hex').slice(0, 12)
}

export function serverKeyAuth(
  options: ServerKeyAuthOptions,
): MiddlewareHandler<{ Variables: ServerKeyVariables }> {
  const keyId = createSecretMatcher(options.keys.map((key) => ({ secret: key, value: serverKeyId(key) })))
  return async function serverKeyAuth(c, next) {
    const found = keyId(bearerToken(c.req.header('authorization')))
    if (found === undefined) {
      throw httpError(
        401,
        'unauthorized',
        'Send Authorization: Bearer <key> with a key from SERVER_API_KEYS',
        {
          headers: { 'www-authenticate': 'Bearer realm="offer-widget-server"' },
        },
      )
    }
    c.set('serverKeyId', found)
    await next()
  }
}
