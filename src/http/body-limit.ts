/**
 * @module Request body size limit that decides from `Content-Length` when the request declares one, and
 * only otherwise (chunked bodies) counts the bytes with hono/body-limit. hono's middleware reads
 * `c.req.raw.body` first, which makes @hono/node-server build a full web `Request` with a stream over the
 * socket for every POST (profiled: ~11 % of the BFF's CPU at saturation); leaving the body untouched keeps
 * its direct read path. The rule is hono's: a declared length frames the body (Node's parser and fetch
 * runtimes never deliver more than it says), so a length over the limit is refused before any byte is read.
 *
 * Every write route declares its own limit with `limitBody` (one 413 answer for all of them), next to the
 * handler that knows what its body holds; the BFF adds only a ceiling for `/api` writes that declare none.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit'
import { errorResponse } from './errors.ts'

export interface BodyLimitOptions {
  maxBytes: number
  /** The answer to a body over `maxBytes`. */
  onError: (c: Context) => Response | Promise<Response>
}

const DIGITS = /^\d+$/

export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const { maxBytes, onError } = options
  const counting = streamingBodyLimit({ maxSize: maxBytes, onError })
  return async function bodyLimit(c, next) {
    const declared = c.req.header('content-length')
    if (declared !== undefined && DIGITS.test(declared) && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxBytes) return onError(c)
      await next()
      return
    }
    // No usable length (chunked, or a malformed header a runtime let through): count what arrives.
    return counting(c, next)
  }
}

/** A route's body limit, answered `413 payload_too_large` naming the limit. */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxBytes,
    onError: () => errorResponse(413, 'payload_too_large', `The body must be at most ${maxBytes} bytes`),
  })
}
