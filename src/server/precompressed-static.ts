/**
 * @module Static files on Node with their build-time brotli and gzip copies (`<file>.br`, `<file>.gz`,
 * scripts/precompress.ts): @hono/node-server's `serveStatic({ precompressed: true })` picks the copy the
 * request's `Accept-Encoding` allows; this adds what it leaves out. Cache-Control is chosen by the file's
 * own name, not the copy's (`x-<hash>.js.br` is as immutable as `x-<hash>.js`), and every answer that could
 * have been encoded says `Vary: Accept-Encoding`, the identity one too, so a shared cache never hands a
 * stored brotli answer to a client that did not ask for it, nor the reverse.
 */
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, MiddlewareHandler } from 'hono'
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress'
import { getMimeType } from 'hono/utils/mime'

const ENCODED_COPY = /\.(?:br|gz|zst)$/

export interface PrecompressedStaticOptions {
  /** Directory of the files (with `rewriteRequestPath`), or leave it out and pass `path`. */
  root?: string
  /** One file, whatever the request path. */
  path?: string
  rewriteRequestPath?: (path: string) => string
  /** Cache-Control for a file, by its own name. */
  cacheControl?: (path: string) => string
}

/** Adds `Accept-Encoding` to a response's `Vary` unless it is there. */
function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get('Vary') ?? ''
  if (/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary)) return
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
}

export function precompressedStatic(options: PrecompressedStaticOptions): MiddlewareHandler {
  const { cacheControl } = options
  // The file serveStatic chose, per request (its onFound runs after the response is built).
  const found = new WeakMap<Context, string>()
  const serve = serveStatic({
    ...(options.root !== undefined ? { root: options.root } : {}),
    ...(options.path !== undefined ? { path: options.path } : {}),
    ...(options.rewriteRequestPath ? { rewriteRequestPath: options.rewriteRequestPath } : {}),
    precompressed: true,
    onFound(path, c) {
      found.set(c, path.replace(ENCODED_COPY, ''))
    },
  })
  return async function precompressedFile(c, next) {
    const response = await serve(c, next)
    const file = found.get(c)
    if (!(response instanceof Response) || file === undefined) return response
    if (cacheControl) response.headers.set('Cache-Control', cacheControl(file))
    const type = getMimeType(file)
    if (type && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) varyOnAcceptEncoding(response.headers)
    return response
  }
}
