/**
 * @module The only module that talks to the offer search API (docs/offer-search-api.md). undici `Pool` with keep-alive
 * (global fetch measured ~3.6x slower as a proxy), timeouts on connect and body, retries inside a
 * budget, every body validated with the contract, and every failure turned into one `UpstreamError`
 * whose `toBffError` mapping is what the widget sees.
 */
import { Readable } from 'node:stream'
import type { ReadableStream } from 'node:stream/web'
import type { HTTPException } from 'hono/http-exception'
import { Pool } from 'undici'
import { backoffDelay } from '../contract/backoff.ts'
import type { FieldIssue } from '../contract/common.ts'
import { toFieldIssues } from '../contract/common.ts'
import {
  type Issuer,
  issuerListSchema,
  type OfferSearchRequest,
  type RateTable,
  upstreamErrorBodySchema,
} from '../contract/offer-search.ts'
import { parseRetryAfter } from '../contract/retry-after.ts'
import { siftRateTable } from '../contract/sift-rate-table.ts'
// Aliased so this file's body stays untouched while it is split (issue #26); rename the calls after.
import { httpError as bffError } from '../http/errors.ts'
import { BodyTooLargeError, readCappedBody } from '../http/read-capped-body.ts'
import { createDroppedItemsReport } from './dropped-items-report.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'
import { type RetryPolicy, retryAfterSeconds } from './retry.ts'

export type UpstreamOperation = 'issuers' | 'create' | 'poll' | 'ready'

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

/**
 * A validated upstream body and the exact text it was parsed from. The BFF answers with `json` instead of
 * serialising `value` again: the same bytes the contract accepted, without a second pass over them.
 */
export interface ValidatedBody<T> {
  value: T
  json: string
}

export interface UpstreamClient {
  listIssuers(): Promise<Issuer[]>
  createOfferSearch(body: OfferSearchRequest): Promise<ValidatedBody<RateTable>>
  getOfferSearch(uuid: string): Promise<ValidatedBody<RateTable>>
  /**
   * The rate table's JSON text, validated. When it is byte-identical to `previousJson` (this uuid's last
   * validated answer: a search whose partners have not answered yet) it is not parsed or checked again.
   */
  pollOfferSearchJson(uuid: string, previousJson?: string): Promise<string>
  /** Resolves when the upstream answers and accepts the token (one attempt, no retry). */
  checkReady(): Promise<void>
  close(): Promise<void>
}

export interface UpstreamClientOptions {
  /** `{base_url}` of docs/offer-search-api.md, e.g. `https://api.example.com/v1` or the sandbox's `.../sandbox/test`. */
  baseUrl: string
  token: string
  apiVersion: string
  /** Named in log lines so the operator knows which configuration to fix. */
  env: 'test' | 'production'
  connectTimeoutMs?: number
  /** Headers and body timeouts of one attempt. */
  requestTimeoutMs?: number
  /** Upstream bodies larger than this are refused as malformed. */
  maxBodyBytes?: number
  connections?: number
  /** `fetch` is for runtimes without sockets (workers); undici everywhere else. */
  transport?: 'undici' | 'fetch'
  retry?: Partial<Record<UpstreamOperation, Partial<RetryPolicy>>>
  logger: Logger
  metrics?: BffMetrics
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

/**
 * Polls are not retried here: the widget polls again within a second and the coalescer keeps upstream
 * polls at least a second apart, which an inner retry would break. Readiness probes make one attempt.
 */
const DEFAULT_RETRY: Record<UpstreamOperation, RetryPolicy> = {
  issuers: { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 2000, budgetMs: 4000 },
  create: { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 2000, budgetMs: 4000 },
  poll: { maxAttempts: 1, baseDelayMs: 1000, maxDelayMs: 1000, budgetMs: 0 },
  ready: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, budgetMs: 0 },
}

interface RawResponse {
  status: number
  header(name: string): string | undefined
  text: string
}

interface Attempt {
  method: 'GET' | 'POST'
  path: string
  body?: string
}

type Send = (attempt: Attempt, headers: Record<string, string>) => Promise<RawResponse>

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

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const url = new URL(options.baseUrl)
  const origin = url.origin
  const prefix = url.pathname.replace(/\/+$/, '')
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const random = options.random ?? Math.random
  const { logger, metrics } = options
  const reportDropped = createDroppedItemsReport({ logger, metrics })
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024
  const connectTimeoutMs = options.connectTimeoutMs ?? 3000
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000
  const policies = Object.fromEntries(
    (Object.keys(DEFAULT_RETRY) as UpstreamOperation[]).map((op) => [
      op,
      { ...DEFAULT_RETRY[op], ...options.retry?.[op] },
    ]),
  ) as Record<UpstreamOperation, RetryPolicy>
  // docs/offer-search-api.md lists all three as required on every request, GETs included.
  const headers = {
    authorization: `Bearer ${options.token}`,
    'api-version': options.apiVersion,
    'content-type': 'application/json',
    accept: 'application/json',
  }

  let send: Send
  let close: () => Promise<void>
  if (options.transport === 'fetch') {
    send = fetchTransport(origin, connectTimeoutMs + requestTimeoutMs, maxBodyBytes)
    close = async () => {}
  } else {
    const pool = new Pool(origin, {
      connections: options.connections ?? 128,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      connectTimeout: connectTimeoutMs,
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
    })
    send = undiciTransport(pool, maxBodyBytes)
    close = () => pool.close()
  }

  // One line per misconfiguration per minute: a wrong token fails every request, the log should not.
  const lastConfigLog = new Map<string, number>()
  function logMisconfiguration(kind: string, message: string) {
    const last = lastConfigLog.get(kind)
    if (last !== undefined && now() - last < 60_000) return
    lastConfigLog.set(kind, now())
    logger.error({ upstream: origin, env: options.env }, message)
  }

  async function call(operation: UpstreamOperation, attempt: Attempt): Promise<RawResponse> {
    const policy = policies[operation]
    const started = now()
    for (let attemptNo = 1; ; attemptNo++) {
      const attemptStarted = now()
      let outcome: { response: RawResponse } | { error: UpstreamError; retryable: boolean }
      try {
        const response = await send(attempt, headers)
        record(operation, String(response.status), attemptStarted)
        outcome = { response }
      } catch (error) {
        if (error instanceof UpstreamError) {
          record(operation, 'malformed', attemptStarted)
          logger.error({ operation, reason: error.message }, 'upstream answer refused')
          throw error
        }
        const code = errorCode(error)
        const timeout = code !== undefined && TIMEOUTS.has(code)
        record(operation, timeout ? 'timeout' : 'connection', attemptStarted)
        const neverSent = code !== undefined && NEVER_SENT.has(code)
        outcome = {
          error: new UpstreamError(
            timeout ? 'timeout' : 'unavailable',
            `upstream ${code ?? 'network error'}`,
          ),
          // A POST that may have reached the server may have created a lead: only retry it when it provably did not.
          retryable: attempt.method === 'GET' || neverSent,
        }
        logger.warn({ operation, code, attempt: attemptNo }, 'upstream request failed')
      }

      if ('response' in outcome) {
        const { response } = outcome
        if (response.status >= 200 && response.status < 300) {
          return response
        }
        const failure = classifyStatus(operation, response)
        // 429 and 503 are answered before processing; 500/502/504 to a POST may hide a created lead.
        const retryable =
          response.status === 429 ||
          response.status === 503 ||
          (attempt.method === 'GET' && response.status >= 500)
        outcome = { error: failure, retryable }
      }

      const { error, retryable } = outcome
      if (!retryable || attemptNo >= policy.maxAttempts) throw error
      const delay = error.details.retryAfterMs ?? backoffDelay(attemptNo - 1, policy, random)
      if (now() + delay - started > policy.budgetMs) throw error
      await sleep(delay)
    }
  }

  function record(operation: UpstreamOperation, status: string, started: number) {
    metrics?.upstreamRequests.inc({ operation, status })
    metrics?.upstreamDuration.observe({ operation }, (now() - started) / 1000)
  }

  function classifyStatus(operation: UpstreamOperation, response: RawResponse): UpstreamError {
    const status = response.status
    const retryAfterMs = parseRetryAfter(response.header('retry-after'), now())
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
            `ENGINE_ENV=${options.env}. Fix ENGINE_TOKEN (a ${options.env} token) or ENGINE_ENV.`,
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

  function parseJson(operation: UpstreamOperation, response: RawResponse): unknown {
    try {
      return JSON.parse(response.text)
    } catch {
      metrics?.upstreamRequests.inc({ operation, status: 'malformed' })
      logger.error({ operation, status: response.status }, 'upstream answered a body that is not JSON')
      throw new UpstreamError('malformed', 'upstream body is not JSON', { status: response.status })
    }
  }

  function validate<T>(
    operation: UpstreamOperation,
    schema: {
      safeParse(
        v: unknown,
      ): { success: true; data: T } | { success: false; error: Parameters<typeof toFieldIssues>[0] }
    },
    value: unknown,
  ): T {
    const parsed = schema.safeParse(value)
    if (parsed.success) return parsed.data
    return refuse(operation, parsed.error)
  }

  function refuse(operation: UpstreamOperation, error: Parameters<typeof toFieldIssues>[0]): never {
    metrics?.upstreamRequests.inc({ operation, status: 'malformed' })
    // Field paths only: the values may be personal data.
    const fields = toFieldIssues(error)
      .slice(0, 5)
      .map((issue) => issue.field)
    logger.error({ operation, fields }, 'upstream body does not match the offer search contract')
    throw new UpstreamError('malformed', 'upstream body does not match the contract')
  }

  async function poll(uuid: string, previousJson: string | undefined) {
    const response = await call('poll', {
      method: 'GET',
      path: `${prefix}/offerSearches/${encodeURIComponent(uuid)}`,
    })
    const { text } = response
    if (previousJson !== undefined && text === previousJson) return { text, table: undefined }
    const { table, dropped } = validateRateTable('poll', parseJson('poll', response))
    if (table.uuid !== uuid) {
      // Never hand one visitor's rate table to a request for another.
      logger.error({ operation: 'poll' }, 'upstream answered a poll with a different rate table uuid')
      throw new UpstreamError('malformed', 'upstream answered another rate table')
    }
    return { text: dropped ? JSON.stringify(table) : text, table }
  }

  /**
   * The rate table with every offer that breaks the contract (or has no http(s) link) dropped alone, and
   * `dropped` true when anything was: the caller then cannot answer the upstream's bytes as they came.
   */
  function validateRateTable(
    operation: 'create' | 'poll',
    value: unknown,
  ): { table: RateTable; dropped: boolean } {
    const sifted = siftRateTable(value)
    if (!sifted.ok) refuse(operation, sifted.error)
    reportDropped(sifted.table.uuid, sifted.dropped)
    return { table: sifted.table, dropped: sifted.dropped.length > 0 }
  }

  return {
    async listIssuers() {
      const response = await call('issuers', { method: 'GET', path: `${prefix}/leads/autoInsurance/issuers` })
      const body = parseJson('issuers', response)
      return validate('issuers', issuerListSchema, body)
    },
    async createOfferSearch(request) {
      const response = await call('create', {
        method: 'POST',
        path: `${prefix}/offerSearches/`,
        body: JSON.stringify(request),
      })
      const { text } = response
      const { table, dropped } = validateRateTable('create', parseJson('create', response))
      return { value: table, json: dropped ? JSON.stringify(table) : text }
    },
    async getOfferSearch(uuid) {
      const { text, table } = await poll(uuid, undefined)
      return { value: table as RateTable, json: text }
    },
    async pollOfferSearchJson(uuid, previousJson) {
      return (await poll(uuid, previousJson)).text
    },
    async checkReady() {
      await call('ready', { method: 'GET', path: `${prefix}/leads/autoInsurance/issuers` })
    },
    close,
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

function undiciTransport(pool: Pool, maxBodyBytes: number): Send {
  return async (attempt, headers) => {
    const response = await pool.request({
      method: attempt.method,
      path: attempt.path,
      headers,
      body: attempt.body,
    })
    const text = await readCappedBody(response.body, maxBodyBytes, {
      contentLength: response.headers['content-length'],
    }).catch(refuseOversized(maxBodyBytes))
    return {
      status: response.statusCode,
      header: (name) => {
        const value = response.headers[name]
        return Array.isArray(value) ? value[0] : value
      },
      text,
    }
  }
}

/** A body past the cap is the upstream's fault: refused as malformed, as any other broken reply. */
function refuseOversized(maxBytes: number) {
  return (error: unknown): never => {
    if (error instanceof BodyTooLargeError) {
      throw new UpstreamError('malformed', `upstream body larger than ${maxBytes} bytes`)
    }
    throw error
  }
}

function fetchTransport(origin: string, timeoutMs: number, maxBodyBytes: number): Send {
  return async (attempt, headers) => {
    const response = await fetch(`${origin}${attempt.path}`, {
      method: attempt.method,
      headers,
      body: attempt.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = response.body
      ? await readCappedBody(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), maxBodyBytes, {
          contentLength: response.headers.get('content-length') ?? undefined,
        }).catch(refuseOversized(maxBodyBytes))
      : ''
    return { status: response.status, header: (name) => response.headers.get(name) ?? undefined, text }
  }
}

/** For `.catch()` in routes: an upstream failure becomes its mapped answer, anything else propagates. */
export function rethrowUpstream(error: unknown): never {
  throw error instanceof UpstreamError ? toBffError(error) : error
}
