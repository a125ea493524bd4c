/**
 * @module The error registry of our own server (the BFF and the marketplace routes mounted on it): one error
 * shape the widget sees, `{ code, message, errors? }` (bffErrorSchema), with a stable `code` from ERROR_CODES,
 * and one writer of `Retry-After`. Handlers and middleware throw `httpError(...)`; `onHttpError` renders the rest.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Logger } from 'pino'
import type { BffError, ErrorCode } from '../contract/bff.ts'
import type { FieldIssue } from '../contract/common.ts'

export interface ErrorOptions {
  errors?: FieldIssue[]
  /** Sent as `Retry-After` (see `retryAfterHeader`): how long the client should wait, in seconds. */
  retryAfterSeconds?: number | undefined
  headers?: Record<string, string>
}

/**
 * The `Retry-After` header of an answer we send, whatever its body: whole seconds, rounded up and never 0,
 * so a client cannot spin. The sandbox writes the upstream's `Retry-After` with it too.
 */
export function retryAfterHeader(seconds: number): { 'retry-after': string } {
  return { 'retry-after': String(Math.max(1, Math.ceil(seconds))) }
}

export function errorResponse(
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  options: ErrorOptions = {},
): Response {
  const body: BffError = options.errors?.length
    ? { code, message, errors: options.errors.map(({ field, reason }) => ({ field, reason })) }
    : { code, message }
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(options.retryAfterSeconds === undefined ? {} : retryAfterHeader(options.retryAfterSeconds)),
      ...options.headers,
    },
  })
}

/** A throwable error answer; Hono's `onError` (see `onHttpError`) turns it into the response. */
export function httpError(
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  options: ErrorOptions = {},
): HTTPException {
  return new HTTPException(status, { res: errorResponse(status, code, message, options), message })
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
}

/** `app.onError`: our own exceptions as they are, Hono's bare ones mapped to a code, anything else 500. */
export function onHttpError(logger: Logger): ErrorHandler {
  return (error, c) => {
    // Materialise the headers middleware prepared (CORS, security) so Hono copies them onto this answer:
    // a cross-origin widget must be able to read its error bodies and Retry-After.
    void c.res
    if (error instanceof HTTPException) {
      if (error.res) return error.getResponse()
      const code = CODE_BY_STATUS[error.status] ?? (error.status >= 500 ? 'internal' : 'bad_request')
      return errorResponse(error.status, code, error.message || 'Request refused')
    }
    logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error in a BFF route')
    return errorResponse(500, 'internal', 'Internal error')
  }
}

export const onHttpNotFound: NotFoundHandler = (c: Context) => {
  void c.res
  return errorResponse(404, 'not_found', `No route for ${c.req.method} ${c.req.path}`)
}
