/**
 * @module What a non-2xx upstream status means: its `UpstreamError` (with the field errors of a 400 and the
 * `Retry-After` of a 429 or 5xx), whether it may be retried, and one log line per misconfiguration.
 */
import type { FieldIssue } from '../../contract/common.ts'
import { upstreamErrorBodySchema } from '../../contract/offer-search.ts'
import { parseRetryAfter } from '../../contract/retry-after.ts'
import type { Timers } from '../../http/timers.ts'
import type { Logger } from '../logger.ts'
import type { UpstreamOperation } from './operations.ts'
import type { RawResponse } from './transport.ts'
import { UpstreamError } from './upstream-error.ts'

/** 429 and 503 are answered before processing; 500/502/504 to a POST may hide a created lead. */
export function retryableStatus(status: number, method: 'GET' | 'POST'): boolean {
  return status === 429 || status === 503 || (method === 'GET' && status >= 500)
}

export interface StatusClassifierOptions {
  logger: Logger
  timers: Timers
  /** The upstream's origin, named in the misconfiguration log line. */
  origin: string
  env: 'test' | 'production'
  apiVersion: string
}

export type ClassifyStatus = (operation: UpstreamOperation, response: RawResponse) => UpstreamError

export function createStatusClassifier(options: StatusClassifierOptions): ClassifyStatus {
  const { logger, timers, env } = options

  // One line per misconfiguration per minute: a wrong token fails every request, the log should not.
  const lastConfigLog = new Map<string, number>()
  function logMisconfiguration(kind: string, message: string) {
    const last = lastConfigLog.get(kind)
    if (last !== undefined && timers.now() - last < 60_000) return
    lastConfigLog.set(kind, timers.now())
    logger.error({ upstream: options.origin, env }, message)
  }

  return function classifyStatus(operation, response) {
    const status = response.status
    const retryAfterMs = parseRetryAfter(response.header('retry-after'), timers.now())
    switch (status) {
      case 400:
        return new UpstreamError('bad_request', 'upstream 400', {
          status,
          fieldErrors: readFieldErrors(response.text),
        })
      case 401:
        logMisconfiguration(
          'unauthorized',
          `Upstream answered 401 to ${operation}: ENGINE_TOKEN is missing, expired or not valid for ` +
            `ENGINE_ENV=${env}. Fix ENGINE_TOKEN (a ${env} token) or ENGINE_ENV.`,
        )
        return new UpstreamError('unauthorized', 'upstream 401', { status })
      case 422:
        logMisconfiguration(
          'unsupported_version',
          `Upstream answered 422 to ${operation}: API_VERSION=${options.apiVersion} is not a version it ` +
            'recognises. Set API_VERSION to a supported version (docs/offer-search-api.md: current 2026-02-25).',
        )
        return new UpstreamError('unsupported_version', 'upstream 422', { status })
      case 404:
        return new UpstreamError('not_found', 'upstream 404', { status })
      case 429:
        return new UpstreamError('rate_limited', 'upstream 429', { status, retryAfterMs })
      default:
        if (status >= 500)
          return new UpstreamError('unavailable', `upstream ${status}`, { status, retryAfterMs })
        logger.error({ operation, status }, 'upstream answered an unexpected status')
        return new UpstreamError('unexpected', `upstream ${status}`, { status })
    }
  }
}

/** Upstream error bodies are read leniently: docs/offer-search-api.md does not show their shape. */
function readFieldErrors(text: string): FieldIssue[] | undefined {
  try {
    const parsed = upstreamErrorBodySchema.safeParse(JSON.parse(text))
    if (!parsed.success) return undefined
    return parsed.data.errors.slice(0, 50).map(({ field, reason }) => ({
      field: field.slice(0, 200),
      reason: reason.slice(0, 500),
    }))
  } catch {
    return undefined
  }
}
