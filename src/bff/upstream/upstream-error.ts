/**
 * @module `UpstreamError`: the one error every failed upstream call ends in, and its kinds. What the widget
 * sees for each kind is `toBffError` (to-bff-error.ts).
 */
import type { FieldIssue } from '../../contract/common.ts'

export type UpstreamErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'unsupported_version'
  | 'not_found'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'malformed'
  | 'unexpected'

export class UpstreamError extends Error {
  override name = 'UpstreamError'
  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number; fieldErrors?: FieldIssue[] } = {},
  ) {
    super(message)
  }
}
