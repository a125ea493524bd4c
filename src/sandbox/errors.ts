/**
 * @module The sandbox's error answers in the upstream offer search API's own wire shape: every 4xx/5xx
 * carries `{ errors: [{ field, reason }] }` (docs/offer-search-api.md#error-body-shape, our choice for that document's "Exact shape
 * of the error objects: not shown"), thrown as `HTTPException`. Deliberately not the BFF's
 * `{ code, message }` (`src/http/errors.ts`, the one registry of our own server's errors): the sandbox stands
 * in for the upstream, so the BFF's upstream client is tested against the upstream's shape. Only the
 * `Retry-After` header is written by that registry's `retryAfterHeader`, the same rule as ours.
 */
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { FieldIssue } from '../contract/common.ts'
import type { UpstreamErrorBody } from '../contract/offer-search.ts'

export function upstreamErrorResponse(
  status: ContentfulStatusCode,
  errors: FieldIssue[],
  headers: Record<string, string> = {},
): Response {
  const body: UpstreamErrorBody = { errors: errors.map(({ field, reason }) => ({ field, reason })) }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

/** Stops the request with an upstream-shaped error body; middleware and handlers throw it, Hono turns it into the response. */
export function upstreamError(
  status: ContentfulStatusCode,
  errors: FieldIssue[],
  headers: Record<string, string> = {},
): HTTPException {
  return new HTTPException(status, { res: upstreamErrorResponse(status, errors, headers) })
}

/**
 * Raised to drop the connection without an answer (fault injection). On Node the socket is destroyed
 * first; in-process there is no socket, so the fetch promise rejects the way undici's does.
 */
export class ConnectionResetError extends TypeError {
  override name = 'TypeError'
  constructor() {
    super('fetch failed', {
      cause: Object.assign(new Error('sandbox fault injection: connection reset'), { code: 'ECONNRESET' }),
    })
  }
}
