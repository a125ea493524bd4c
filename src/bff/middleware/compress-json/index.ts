/**
 * @module gzip for JSON answers of `threshold` bytes or more (1 KiB by default, below which the saving is
 * less than a packet): Hono's `compress`, which decides by `Content-Length`, given each JSON answer's length
 * first (answers made by `c.json` are strings in memory and carry none until Node writes them). Only the
 * body's encoding changes: status, every other header, and errors (whatever `onError` answered) stay as they
 * are; every JSON answer says `Vary: Accept-Encoding`, gzipped or not, since the choice depends on it. A
 * client that takes no gzip costs no read of the answer. Anything not JSON passes untouched.
 * gzip only: Hono's compress has no brotli, and on answers of a few KiB the two are close. Off in Cloudflare's
 * workerd, which encodes a body itself whenever its answer names a `Content-Encoding` (an answer gzipped here
 * reached the client gzipped twice) and whose edge compresses by `Accept-Encoding` anyway.
 */
import type { MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'

const WORKERD =
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers'
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json(?:[;\s]|$)/i

export interface CompressJsonOptions {
  /** Answers shorter than this many bytes go as they are. */
  threshold?: number
}

export function compressJson(options: CompressJsonOptions = {}): MiddlewareHandler {
  const gzip = compress({
    encoding: 'gzip',
    threshold: options.threshold ?? 1024,
    contentTypeFilter: JSON_TYPE,
  })
  return async function compressJson(c, next) {
    if (WORKERD) return next()
    // A client that takes no gzip (a publisher's server, a probe): the answer is not read, only marked.
    if (c.req.method === 'HEAD' || !GZIP.test(c.req.header('Accept-Encoding') ?? '')) {
      await next()
      if (JSON_TYPE.test(c.res.headers.get('Content-Type') ?? '')) varyByEncoding(c.res.headers)
      return
    }
    await gzip(c, async () => {
      await next()
      const res = c.res
      const headers = res.headers
      if (!JSON_TYPE.test(headers.get('Content-Type') ?? '')) return
      varyByEncoding(headers)
      if (headers.has('Content-Length') || headers.has('Content-Encoding')) return
      // The body once, as bytes, so its length is known; the answer is rebuilt from them without copying
      // its headers again (`c.res = undefined` first: Hono merges the old answer's headers into a new one).
      const body = encoder.encode(await res.text())
      headers.set('Content-Length', String(body.byteLength))
      const status = res.status
      c.res = undefined
      c.res = new Response(body, { status, headers })
    })
  }
}

const GZIP = /gzip/i
const VARY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i
const encoder = new TextEncoder()

/** Every JSON answer says it depends on `Accept-Encoding`, whether or not this one was gzipped. */
function varyByEncoding(headers: Headers): void {
  const current = headers.get('Vary')
  if (current === '*' || (current && VARY_ENCODING.test(current))) return
  headers.set('Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
}
