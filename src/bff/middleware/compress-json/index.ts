/**
 * @module gzip for JSON answers of `threshold` bytes or more (1 KiB by default, below which the saving is
 * less than a packet): Hono's `compress`, which decides by `Content-Length`, given each JSON answer's length
 * first (answers made by `c.json` are strings in memory and carry none until Node writes them). Only the
 * body's encoding changes: status, every other header, and errors (whatever `onError` answered) stay as they
 * are; `Vary: Accept-Encoding` is added to answers over the threshold. Anything not JSON passes untouched.
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
    await gzip(c, async () => {
      await next()
      const res = c.res
      const sizeUnknown =
        !res.headers.has('Content-Length') && !res.headers.has('Content-Encoding') && res.body !== null
      if (c.req.method === 'HEAD' || !sizeUnknown || !JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) {
        return
      }
      const body = new Uint8Array(await res.arrayBuffer())
      const sized = new Response(body, res)
      sized.headers.set('Content-Length', String(body.byteLength))
      c.res = sized
    })
  }
}
