/**
 * @module `createUpstreamClient`: the offer search API (docs/offer-search-api.md) as four calls. It composes
 * a transport (undici by default, fetch for runtimes without sockets), retries inside a budget on the
 * injected clock, the contract's validation of every body, and one `UpstreamError` for every failure.
 */
import {
  type Issuer,
  issuerListSchema,
  type OfferSearchRequest,
  type RateTable,
} from '../../contract/offer-search.ts'
import { type RetryPolicy, retryWithinBudget } from '../../http/retry.ts'
import { systemTimers, type Timers } from '../../http/timers.ts'
import { inSpan, inTrace, type Span } from '../../http/trace.ts'
import type { Logger } from '../logger.ts'
import type { BffMetrics } from '../metrics.ts'
import { createAnswerReader } from './answer-reader.ts'
import { createFetchTransport } from './fetch-transport.ts'
import { networkFailure } from './network-failure.ts'
import { retryPolicies, type UpstreamOperation } from './operations.ts'
import { createStatusClassifier, retryableStatus } from './status-failure.ts'
import type { Attempt, RawResponse, Transport } from './transport.ts'
import { createUndiciTransport } from './undici-transport.ts'
import { UpstreamError } from './upstream-error.ts'

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
  /** The clock of retry waits, `Retry-After` dates, durations and log throttling; default `systemTimers`. */
  timers?: Timers
  random?: () => number
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const url = new URL(options.baseUrl)
  const origin = url.origin
  const prefix = url.pathname.replace(/\/+$/, '')
  const timers = options.timers ?? systemTimers
  const random = options.random ?? Math.random
  const { logger, metrics } = options
  const policies = retryPolicies(options.retry)
  const read = createAnswerReader({ logger, metrics })
  const classifyStatus = createStatusClassifier({
    logger,
    timers,
    origin,
    env: options.env,
    apiVersion: options.apiVersion,
  })
  // docs/offer-search-api.md lists all three as required on every request, GETs included.
  const headers = {
    authorization: `Bearer ${options.token}`,
    'api-version': options.apiVersion,
    'content-type': 'application/json',
    accept: 'application/json',
  }
  const transport = transportFor(options, origin)
  const call = createCaller({ transport, headers, policies, timers, random, logger, metrics, classifyStatus })

  async function poll(uuid: string, previousJson: string | undefined) {
    const response = await call('poll', {
      method: 'GET',
      path: `${prefix}/offerSearches/${encodeURIComponent(uuid)}`,
    })
    const { text } = response
    if (previousJson !== undefined && text === previousJson) return { text, table: undefined }
    const { table, dropped } = read.validateRateTable('poll', read.parseJson('poll', response))
    if (table.uuid !== uuid) {
      // Never hand one visitor's rate table to a request for another.
      logger.error({ operation: 'poll' }, 'upstream answered a poll with a different rate table uuid')
      throw new UpstreamError('malformed', 'upstream answered another rate table')
    }
    return { text: dropped ? JSON.stringify(table) : text, table }
  }

  return {
    async listIssuers() {
      const response = await call('issuers', { method: 'GET', path: `${prefix}/leads/autoInsurance/issuers` })
      return read.validate('issuers', issuerListSchema, read.parseJson('issuers', response))
    },
    async createOfferSearch(request) {
      const response = await call('create', {
        method: 'POST',
        path: `${prefix}/offerSearches/`,
        body: JSON.stringify(request),
      })
      const { text } = response
      const { table, dropped } = read.validateRateTable('create', read.parseJson('create', response))
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
    close: () => transport.close(),
  }
}

/** What one upstream operation needs to be sent, retried, timed and counted. */
interface CallerDeps {
  transport: Transport
  headers: Record<string, string>
  policies: Record<UpstreamOperation, RetryPolicy>
  timers: Timers
  random: () => number
  logger: Logger
  metrics: BffMetrics | undefined
  classifyStatus: ReturnType<typeof createStatusClassifier>
}

/** `call(operation, attempt)`: the attempt sent with its retries, each counted, in a span within a trace. */
function createCaller({
  transport,
  headers,
  policies,
  timers,
  random,
  logger,
  metrics,
  classifyStatus,
}: CallerDeps) {
  function record(operation: UpstreamOperation, status: string, started: number) {
    metrics?.upstreamRequests.inc({ operation, status })
    metrics?.upstreamDuration.observe({ operation }, (timers.now() - started) / 1000)
  }

  /**
   * One operation with its retries. Within a request's trace it is a span (`upstream <operation>`) with an
   * event per attempt (status or error kind, whether it is retried); undici's instrumentation adds each
   * attempt's HTTP client span below it. Readiness probes start no trace of their own.
   */
  function call(operation: UpstreamOperation, attempt: Attempt): Promise<RawResponse> {
    if (!inTrace()) return attempts(operation, attempt)
    return inSpan(`upstream ${operation}`, { 'upstream.operation': operation }, (span) =>
      attempts(operation, attempt, span),
    )
  }

  function attempts(operation: UpstreamOperation, attempt: Attempt, span?: Span): Promise<RawResponse> {
    const attempted = (attemptNo: number, outcome: string, retryable: boolean) => {
      span?.setAttribute('upstream.attempts', attemptNo)
      span?.addEvent('upstream attempt', { attempt: attemptNo, outcome, retryable })
    }
    return retryWithinBudget(policies[operation], { timers, random }, async (attemptNo) => {
      const attemptStarted = timers.now()
      let response: RawResponse
      try {
        response = await transport.send(attempt, headers)
      } catch (error) {
        if (error instanceof UpstreamError) {
          record(operation, 'malformed', attemptStarted)
          attempted(attemptNo, 'malformed', false)
          logger.error({ operation, reason: error.message }, 'upstream answer refused')
          throw error
        }
        const failure = networkFailure(error, attempt.method)
        record(operation, failure.timeout ? 'timeout' : 'connection', attemptStarted)
        attempted(attemptNo, failure.timeout ? 'timeout' : 'connection', failure.retryable)
        logger.warn({ operation, code: failure.code, attempt: attemptNo }, 'upstream request failed')
        return { ok: false, error: failure.error, retryable: failure.retryable }
      }
      record(operation, String(response.status), attemptStarted)
      if (response.status >= 200 && response.status < 300) {
        attempted(attemptNo, String(response.status), false)
        return { ok: true, value: response }
      }
      const error = classifyStatus(operation, response)
      const retryable = retryableStatus(response.status, attempt.method)
      attempted(attemptNo, String(response.status), retryable)
      return {
        ok: false,
        error,
        retryable,
        retryAfterMs: error.details.retryAfterMs,
      }
    })
  }

  return call
}

/** undici by default; `fetch` for runtimes without sockets. */
function transportFor(options: UpstreamClientOptions, origin: string): Transport {
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024
  const connectTimeoutMs = options.connectTimeoutMs ?? 3000
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000
  return options.transport === 'fetch'
    ? createFetchTransport(origin, connectTimeoutMs + requestTimeoutMs, maxBodyBytes)
    : createUndiciTransport({
        origin,
        connections: options.connections ?? 128,
        connectTimeoutMs,
        requestTimeoutMs,
        maxBodyBytes,
      })
}
