/** @module The documented mapping of an `UpstreamError` to what the widget sees (README "Decisions"). */
import type { HTTPException } from 'hono/http-exception'
import { retryAfterSeconds } from '../../http/retry.ts'
import { bffError } from '../errors.ts'
import { UpstreamError } from './upstream-error.ts'

/**
 * The documented mapping (README "Decisions"): 400 -> 400 with the field errors; 401/422 -> 502 (the
 * visitor cannot fix a token); 404 -> 404; 429 -> 429 with Retry-After; 5xx, timeouts and connection
 * errors -> 503; a malformed or unexpected answer -> 502.
 */
export function toBffError(error: UpstreamError): HTTPException {
  const { fieldErrors, retryAfterMs } = error.details
  switch (error.kind) {
    case 'bad_request':
      return fieldErrors?.length
        ? bffError(400, 'validation_failed', 'The offer search was refused: fix the fields listed', {
            errors: fieldErrors,
          })
        : bffError(400, 'bad_request', 'The offer search was refused as malformed')
    case 'unauthorized':
    case 'unsupported_version':
      return bffError(502, 'upstream_misconfigured', 'Offers are unavailable: the server is misconfigured')
    case 'not_found':
      return bffError(404, 'not_found', 'No such offer search')
    case 'rate_limited':
      return bffError(429, 'rate_limited', 'Too many requests: retry after the delay in Retry-After', {
        headers: { 'retry-after': retryAfterSeconds(retryAfterMs) },
      })
    case 'unavailable':
    case 'timeout':
      return bffError(503, 'upstream_unavailable', 'Offers are briefly unavailable: retry shortly', {
        headers: { 'retry-after': retryAfterSeconds(retryAfterMs) },
      })
    default:
      return bffError(502, 'upstream_unavailable', 'Offers are unavailable: the offer service answered badly')
  }
}

/** For `.catch()` in routes: an upstream failure becomes its mapped answer, anything else propagates. */
export function rethrowUpstream(error: unknown): never {
  throw error instanceof UpstreamError ? toBffError(error) : error
}
