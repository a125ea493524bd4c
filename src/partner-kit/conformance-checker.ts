/**
 * @module The conformance checker: sends the sample leads to a partner endpoint over HTTP (undici,
 * concurrently but bounded), times each reply against docs/partner-interface.md's 12 s window, and judges the replies.
 */

import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { httpUrlField } from '../contract/http-url.ts'
import { systemTimers, type Timers } from '../http/timers.ts'
import { type LatencySummary, summarizeLatency } from './latency.ts'
import { PARTNER_OBLIGATIONS } from './partner-obligations.ts'
import { type CheckResult, type Exchange, evaluateExchanges } from './reply-checks.ts'
import { type SampleLead, sampleLeads } from './sample-leads.ts'

/** docs/partner-interface.md: "Recommended response window: 12 seconds; a later offer may be disregarded". */
export const RESPONSE_WINDOW_MS = 12_000
/** How long past the window we still wait, to tell "late" from "never". */
export const ABORT_MARGIN_MS = 3_000
export const DEFAULT_CONCURRENCY = 4
export const MAX_CONCURRENCY = 16
/** A reply is a few kilobytes; more is a broken endpoint, not a reply. */
const MAX_REPLY_BYTES = 1024 * 1024

export interface CheckPartnerOptions {
  /** Extra request headers, e.g. the partner's authentication (docs/partner-interface.md: "not shown"). */
  headers?: ReadonlyArray<readonly [string, string]>
  /** The response window; docs/partner-interface.md's 12 s by default. */
  windowMs?: number
  /** Extra wait past the window before the request is aborted. */
  marginMs?: number
  /** Leads in flight at once. */
  concurrency?: number
  /** The battery; defaults to `sampleLeads()`. */
  leads?: readonly SampleLead[]
  /** The abort timer and the latency clock; the system's by default, a fake clock in tests. */
  timers?: Timers
}

/** The system's timers, with a monotonic sub-millisecond clock: latencies are reported to 0.1 ms. */
const CHECKER_TIMERS: Timers = { ...systemTimers, now: () => performance.now() }

export interface LeadResult {
  id: string
  title: string
  kind: SampleLead['kind']
  ms: number
  outcome: Exchange['outcome']
  httpStatus?: number
  status?: string
  leadId?: string
  offers?: number
  reason?: string
  error?: string
}

export interface ConformanceReport {
  url: string
  ok: boolean
  windowMs: number
  concurrency: number
  latency: LatencySummary
  checks: CheckResult[]
  leads: LeadResult[]
  /** What a partner owes beyond the wire format (no remarketing to non-clickers, ...): stated, not tested. */
  obligations: readonly string[]
}

const endpointUrlSchema = httpUrlField('the partner URL', {
  hostname: true,
  example: 'https://partner.example.com/leads',
})

/**
 * Marks every request so a partner can keep checker traffic out of its books
 * (docs/partner-interface.md#conformance-checker-invalid-and-synthetic-leads).
 */
export const SYNTHETIC_HEADER = 'offer-widget-synthetic-lead'

async function sendLead(
  url: string,
  sample: SampleLead,
  headers: Record<string, string>,
  dispatcher: Agent,
  abortMs: number,
  timers: Timers,
): Promise<Exchange> {
  const controller = new AbortController()
  const timer = timers.setTimeout(() => controller.abort(), abortMs)
  const started = timers.now()
  const elapsed = () => Math.round((timers.now() - started) * 10) / 10
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(sample.lead),
      dispatcher,
      signal: controller.signal,
    })
    const body = await response.body.text()
    const contentType = response.headers['content-type']
    return {
      lead: sample,
      ms: elapsed(),
      outcome: 'replied',
      httpStatus: response.statusCode,
      ...(contentType === undefined ? {} : { contentType: String(contentType) }),
      body,
    }
  } catch (error) {
    if (controller.signal.aborted) return { lead: sample, ms: elapsed(), outcome: 'timeout' }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return { lead: sample, ms: elapsed(), outcome: 'network-error', error: message }
  } finally {
    timers.clearTimeout(timer)
  }
}

/** Runs `task` over `items` with at most `limit` in flight, keeping order. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

function leadResult(exchange: Exchange): LeadResult {
  const result: LeadResult = {
    id: exchange.lead.id,
    title: exchange.lead.title,
    kind: exchange.lead.kind,
    ms: exchange.ms,
    outcome: exchange.outcome,
    ...(exchange.httpStatus === undefined ? {} : { httpStatus: exchange.httpStatus }),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
  }
  try {
    const body: unknown = JSON.parse(exchange.body ?? '')
    if (typeof body === 'object' && body !== null) {
      const reply = body as Record<string, unknown>
      if (typeof reply.status === 'string') result.status = reply.status
      if (typeof reply.lead_id === 'string') result.leadId = reply.lead_id
      if (Array.isArray(reply.offers)) result.offers = reply.offers.length
      if (typeof reply.reason === 'string') result.reason = reply.reason.slice(0, 200)
    }
  } catch {
    // Not JSON: the `json` check reports it.
  }
  return result
}

/** Sends the battery to `url` and returns the report; never throws for a misbehaving partner. */
export async function checkPartner(
  url: string,
  options: CheckPartnerOptions = {},
): Promise<ConformanceReport> {
  const parsedUrl = endpointUrlSchema.safeParse(url)
  if (!parsedUrl.success) throw new TypeError(parsedUrl.error.issues[0]?.message ?? 'invalid partner URL')
  const windowMs = options.windowMs ?? RESPONSE_WINDOW_MS
  const abortMs = windowMs + (options.marginMs ?? ABORT_MARGIN_MS)
  const concurrency = Math.min(
    Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY)),
    MAX_CONCURRENCY,
  )
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'offer-widget-check-partner/0.1',
    [SYNTHETIC_HEADER]: 'true',
  }
  for (const [name, value] of options.headers ?? []) headers[name.toLowerCase()] = value

  const dispatcher = new Agent({ connections: concurrency, maxResponseSize: MAX_REPLY_BYTES })
  let exchanges: Exchange[]
  try {
    exchanges = await mapBounded(options.leads ?? sampleLeads(), concurrency, (sample) =>
      sendLead(url, sample, headers, dispatcher, abortMs, options.timers ?? CHECKER_TIMERS),
    )
  } finally {
    await dispatcher.destroy()
  }
  const checks = evaluateExchanges(exchanges, { url, windowMs, abortMs })
  return {
    url,
    ok: checks.every((check) => check.ok),
    windowMs,
    concurrency,
    latency: summarizeLatency(exchanges.map((exchange) => exchange.ms)),
    checks,
    leads: exchanges.map(leadResult),
    obligations: PARTNER_OBLIGATIONS,
  }
}
