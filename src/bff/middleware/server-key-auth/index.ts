/**
 * @module `Authorization: Bearer <key>` against `SERVER_API_KEYS`. Keys are compared in constant time over
 * their SHA-256 digests, and only a short fingerprint (`keyId`, never the key) is kept on the context for
 * per-key limits and logs.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { httpError } from '../../../http/errors.ts'

export interface ServerKeyAuthOptions {
  keys: readonly string[]
}

export type ServerKeyVariables = { serverKeyId: string }

const digest = (text: string) => createHash('sha256').update(text).digest()

/** A key's fingerprint: 12 hex digits of its SHA-256, safe to log and to use as a limiter key. */
export function serverKeyId(key: string): string {
  return digest(key).toString('hex').slice(0, 12)
}

export function serverKeyAuth(
  options: ServerKeyAuthOptions,
): MiddlewareHandler<{ Variables: ServerKeyVariables }> {
  const known = options.keys.map((key) => ({ digest: digest(key), id: serverKeyId(key) }))
  return async function serverKeyAuth(c, next) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
    const presented = match ? digest(match[1] as string) : undefined
    // Every known key is compared, so the time taken does not say which one came close.
    let found: string | undefined
    for (const entry of known) {
      if (presented && timingSafeEqual(presented, entry.digest)) found = entry.id
    }
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
