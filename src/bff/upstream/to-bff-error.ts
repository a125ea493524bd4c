/** @module The documented mapping of an `UpstreamError` to what the widget sees (docs/offer-search-api.md#bff-error-mapping). */
import type { HTTPException } from 'hono/http-exception'
import { httpError } from '../../http/errors.ts'
import { UpstreamError } from './upstream-error.ts'

/**
 * The documented mapping (docs/offer-search-api.md#bff-error-mapping): 400 -> 400 with the field errors; 401/422 -> 502 (the
 * visitor cannot fix a token); 404 -> 404; 429 -> 429 with Retry-After; 5xx, timeouts and connection
 * errors -> 503; a malformed or unexpected answer -> 502.
 */
export function toBffError(error: UpstreamError): HTTPException {
  const { fieldErrors, retryAfterMs } = error.details
  switch (error.kind) {
    case 'bad_request':
      return fieldErrors?.length
        ? httpError(400, 'validation_failed', 'The offer search was refused: fix the fields listed', {
            errors: fieldErrors,
          })
        : httpError(400, 'bad_request', 'The offer search was refused as malformed')
    case 'unauthorized':
    case 'unsupported_version':
      return httpError(502, 'upstream_misconfigured', 'Offers are unavailable: the server is misconfigured')
    case 'not_found':
      return httpError(404, 'not_found', 'No such offer search')
    case 'rate_limited':
      return httpError(429, 'rate_limited', 'Too many requests: retry after the delay in Retry-After', {
        retryAfterSeconds: (retryAfterMs ?? 1000) / 1000,
      })
    case 'unavailable':
    case 'timeout':
      return httpError(503, 'upstream_unavailable', 'Offers are briefly unavailable: retry shortly', {
        retryAfterSeconds: (retryAfterMs ?? 1000) / 1000,
      })
    default:
      return httpError(
        502,
        'upstream_unavailable',
        'Offers are unavailable: the offer service answered badly',
      )
  }
}

/** For `.catch()` in routes: an upstream failure becomes its mapped answer, anything else propagates. */
export function rethrowUpstream(error: unknown): never {
  throw error instanceof UpstreamError ? toBffError(error) : error
}
