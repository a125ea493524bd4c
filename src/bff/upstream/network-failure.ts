/**
 * @module What a transport error (no answer at all) means: a timeout or an unavailable upstream, and
 * whether the request may be sent again.
 */
import { UpstreamError } from './upstream-error.ts'

/** A failure before any byte of the request reached the server: safe to retry even a POST. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])
const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    if ((current as { name?: unknown }).name === 'TimeoutError') return 'UND_ERR_HEADERS_TIMEOUT'
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

export interface NetworkFailure {
  error: UpstreamError
  /** The system or undici error code, for the log line. */
  code: string | undefined
  timeout: boolean
  retryable: boolean
}

export function networkFailure(cause: unknown, method: 'GET' | 'POST'): NetworkFailure {
  const code = errorCode(cause)
  const timeout = code !== undefined && TIMEOUTS.has(code)
  const neverSent = code !== undefined && NEVER_SENT.has(code)
  return {
    error: new UpstreamError(timeout ? 'timeout' : 'unavailable', `upstream ${code ?? 'network error'}`),
    code,
    timeout,
    // A POST that may have reached the server may have created a lead: only retry it when it provably did not.
    retryable: method === 'GET' || neverSent,
  }
}
