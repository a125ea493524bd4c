/**
 * @module gzip for JSON answers of `threshold` bytes or more (1 KiB by default, below which the saving is
 * less than a packet), for clients whose `Accept-Encoding` takes gzip. Only the body's encoding changes:
 * status, every other header, and errors (whatever `onError` answered) stay as they are; every JSON answer
 * says `Vary: Accept-Encoding`, gzipped or not, since the choice depends on it. A client that takes no gzip
 * costs no read of the answer. Anything not JSON, HEAD, 206 and `no-transform` answers pass untouched.
 *
 * gzip only, by node:zlib in one call per answer (Hono's `compress` pipes each answer through a
 * `CompressionStream`, which cost half the throughput of a proxied search: docs/benchmarks.md); on answers of
 * a few KiB brotli and gzip are close. Off in Cloudflare's workerd, which encodes a body itself whenever its
 * answer names a `Content-Encoding` (an answer gzipped here reached the client gzipped twice) and whose edge
 * compresses by `Accept-Encoding` anyway.
 */
import { promisify } from 'node:util'
import { gzip as gzipCallback, gzipSync } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'

const gzipAsync = promisify(gzipCallback)
/**
 * Up to this size an answer is gzipped on the event loop (a 5 KB rate table: about 30 µs, less than the
 * hop to libuv's pool costs); larger ones (reports) on the pool, so no answer holds the loop for long.
 */
const SYNC_GZIP_MAX_BYTES = 64 * 1024
const WORKERD =
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers'
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json(?:[;\s]|$)/i
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i

export interface CompressJsonOptions {
  /** Answers shorter than this many bytes go as they are. */
  threshold?: number
}

export function compressJson(options: CompressJsonOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024
  return async function compressJson(c, next) {
    if (WORKERD) return next()
    const wantsGzip = c.req.method !== 'HEAD' && acceptsGzip(c.req.header('Accept-Encoding'))
    await next()
    const res = c.res
    const headers = res.headers
    if (!JSON_TYPE.test(headers.get('Content-Type') ?? '')) return
    varyByEncoding(headers)
    // A client that takes no gzip (a publisher's server, a probe): the answer is not read, only marked.
    if (!wantsGzip || res.status === 206 || headers.has('Content-Encoding') || headers.has('Content-Length'))
      return
    if (NO_TRANSFORM.test(headers.get('Cache-Control') ?? '')) return
    // The body once, as bytes, gzipped in one call (no web stream per answer). The answer is rebuilt without
    // Hono copying the old one's headers into it (`c.res = undefined` first).
    const status = res.status
    let body = encoder.encode(await res.text())
    if (body.byteLength >= threshold) {
      body = body.byteLength <= SYNC_GZIP_MAX_BYTES ? gzipSync(body) : await gzipAsync(body)
      headers.set('Content-Encoding', 'gzip')
      const etag = headers.get('ETag')
      if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`)
    }
    headers.set('Content-Length', String(body.byteLength))
    c.res = undefined
    c.res = new Response(body, { status, headers })
  }
}

const encoder = new TextEncoder()
const VARY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i

/** `Accept-Encoding` names gzip (or `*`) with a weight above 0. */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  let wildcard = false
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const accepted = q === undefined || Number(q.slice(2)) > 0
    if (name.trim() === 'gzip') return accepted
    if (name.trim() === '*') wildcard = accepted
  }
  return wildcard
}

/** Every JSON answer says it depends on `Accept-Encoding`, whether or not this one was gzipped. */
function varyByEncoding(headers: Headers): void {
  const current = headers.get('Vary')
  if (current === '*' || (current && VARY_ENCODING.test(current))) return
  headers.set('Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
}
