/**
 * @module The one error type the widget surfaces: what went wrong, whether a retry can help, and the
 * field errors the BFF named.
 */

export type WidgetErrorKind =
  /** 429 */
  | 'rate_limited'
  /** 5xx */
  | 'server'
  /** fetch rejected: offline, DNS, CORS, reset */
  | 'network'
  /** 400 with field errors */
  | 'validation'
  /** 404: the search is unknown to the BFF */
  | 'not_found'
  /** any other 4xx */
  | 'client'
  /** a 2xx whose body failed validation */
  | 'invalid_response'

export interface FieldError {
  field: string
  reason: string
}

export class OfferWidgetError extends Error {
  override readonly name = 'OfferWidgetError'
  readonly kind: WidgetErrorKind
  readonly status: number | undefined
  /** The BFF's stable code when it sent one. */
  readonly code: string | undefined
  readonly fieldErrors: FieldError[]
  /** From `Retry-After` on a 429, when present and readable. */
  readonly retryAfterMs: number | undefined

  constructor(
    kind: WidgetErrorKind,
    message: string,
    extra: { status?: number; code?: string; fieldErrors?: FieldError[]; retryAfterMs?: number } = {},
  ) {
    super(message)
    this.kind = kind
    this.status = extra.status
    this.code = extra.code
    this.fieldErrors = extra.fieldErrors ?? []
    this.retryAfterMs = extra.retryAfterMs
  }
}

/** docs/offer-search-api.md: 429 and 5xx are transient; network failures are treated the same way. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof OfferWidgetError &&
    (error.kind === 'rate_limited' || error.kind === 'server' || error.kind === 'network')
  )
}

export function kindForStatus(status: number): WidgetErrorKind {
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'server'
  if (status === 404) return 'not_found'
  if (status === 400 || status === 422) return 'validation'
  return 'client'
}
