/**
 * @module The conformance checks: what a partner's HTTP answer to each sample lead must satisfy, judged
 * from recorded exchanges (pure, no I/O). Each check is one rule of docs/partner-interface.md or one documented decision,
 * aggregated over every lead so a report has one line per check. Links, bids and the lead's PII are judged
 * by the marketplace's own rules (`partnerUrlProblem`, `MAX_BID`, the PII finder of src/marketplace/fan-out/),
 * as they are outside sandbox mode: what passes here is what the marketplace keeps live.
 */
import { toFieldIssues } from '../contract/common.ts'
import { isLoopbackHost } from '../contract/network-host.ts'
import { conditionalFieldIssues, partnerReplySchema, partnerUrlProblem } from '../contract/partner.ts'
import { CHECKED_FIELDS, MAX_BID } from '../marketplace/fan-out/offer-problems.ts'
import { judgeLoanTerms } from '../marketplace/fan-out/offer-terms.ts'
import { createPiiFinder, type PiiFinder, piiProblem } from '../marketplace/fan-out/pii-finder.ts'
import { loanTermsProblems } from './loan-terms-checks.ts'
import type { SampleLead } from './sample-leads.ts'

/** What happened when one sample lead was sent. */
export interface Exchange {
  lead: SampleLead
  /** From sending the request to the last byte of the reply (or to the abort). */
  ms: number
  outcome: 'replied' | 'timeout' | 'network-error'
  error?: string
  httpStatus?: number
  contentType?: string
  body?: string
}

export interface CheckFailure {
  /** Sample lead id, or `(endpoint)` for checks of the URL itself. */
  lead: string
  message: string
}

export interface CheckResult {
  id: string
  title: string
  /** False when the check has failures; a check with warnings only is still ok. */
  ok: boolean
  detail: string
  failures: CheckFailure[]
  /** What a warning check found: worth fixing, but the marketplace copes (it drops an optional field). */
  warnings: CheckFailure[]
}

export interface CheckSettings {
  url: string
  windowMs: number
  abortMs: number
}

interface Context {
  exchange: Exchange
  settings: CheckSettings
  /** The reply body when it is a JSON object. */
  reply?: Record<string, unknown>
  /** The reply's offers when it is an approved reply whose `offers` is an array. */
  offers?: unknown[]
}

interface CheckDefinition {
  id: string
  title: string
  /** What the check was exercised on, plural ("replies", "approved replies"). */
  scope: string
  /** `warning`: what it finds never fails the run (an optional field the marketplace drops when wrong). */
  severity?: 'warning'
  /** undefined: does not apply to this exchange; []: passes; otherwise the failures. */
  test(context: Context): string[] | undefined
}

const STATUSES = ['approved', 'rejected', 'error']
const MAX_SHOWN = 120

function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value))
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Why a partner link would be refused live, or undefined: the marketplace's rule outside sandbox mode (https
 * to a public host; docs/partner-interface.md#links-and-endpoints).
 */
export function linkProblem(value: unknown, field: string): string | undefined {
  if (typeof value !== 'string' || value === '') return `${field} is missing or not a string`
  const problem = partnerUrlProblem(value, { publicOnly: true })
  return problem === undefined ? undefined : `${field} ${show(value)} ${problem}`
}

function offerProblems(
  offers: unknown[],
  problem: (offer: Record<string, unknown>, index: number) => string | undefined,
): string[] {
  const problems: string[] = []
  offers.forEach((offer, index) => {
    const found = isObject(offer) ? problem(offer, index) : `offers.${index} is not an object`
    if (found) problems.push(found)
  })
  return problems
}

/** What the marketplace's PII finder reads in one offer: its checked fields, then its loan terms. */
function offerPii(offer: Record<string, unknown>, index: number, findPii: PiiFinder): string | undefined {
  for (const field of CHECKED_FIELDS) {
    const value = offer[field]
    if (typeof value !== 'string') continue
    const found = findPii(value)
    if (found !== undefined) return piiProblem(`offers.${index}.${field}`, found)
  }
  const terms = judgeLoanTerms(offer.loan_terms, index, findPii)
  return terms.kind === 'pii' ? terms.problem.replace(`offers[${index}]`, `offers.${index}`) : undefined
}

export const CHECKS: readonly CheckDefinition[] = [
  {
    id: 'reachable',
    title: 'the endpoint accepts the request and sends a reply',
    scope: 'leads sent',
    test: ({ exchange }) => (exchange.outcome === 'network-error' ? [exchange.error ?? 'network error'] : []),
  },
  {
    // docs/partner-interface.md: "Partner does not answer within the recommended 12 second window: the offer may be disregarded."
    id: 'window',
    title: 'every reply arrives within the response window',
    scope: 'leads sent',
    test: ({ exchange, settings }) => {
      if (exchange.outcome === 'network-error') return undefined
      if (exchange.outcome === 'timeout')
        return [`no reply within ${settings.abortMs} ms: request aborted (window ${settings.windowMs} ms)`]
      if (exchange.ms > settings.windowMs)
        return [`replied after ${Math.round(exchange.ms)} ms, past the ${settings.windowMs} ms window`]
      return []
    },
  },
  {
    // docs/partner-interface.md: HTTP status codes "not shown"; we accept any 2xx
    // (docs/partner-interface.md#http-statuses-and-what-counts-as-an-error).
    id: 'http-status',
    title: 'HTTP status is 2xx',
    scope: 'replies',
    test: ({ exchange }) => {
      if (exchange.outcome !== 'replied') return undefined
      const status = exchange.httpStatus ?? 0
      return status >= 200 && status < 300
        ? []
        : [`HTTP ${status}; failures belong in the body as status "error"`]
    },
  },
  {
    id: 'content-type',
    title: 'Content-Type is JSON',
    scope: 'replies',
    test: ({ exchange }) => {
      if (exchange.outcome !== 'replied') return undefined
      return /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(exchange.contentType ?? '')
        ? []
        : [`Content-Type is ${show(exchange.contentType ?? '(none)')}, expected application/json`]
    },
  },
  {
    // docs/partner-interface.md: "Returned: the partner reply object above, as JSON."
    id: 'json',
    title: 'body is a JSON object',
    scope: 'replies',
    test: ({ exchange, reply }) => {
      if (exchange.outcome !== 'replied') return undefined
      if (reply) return []
      try {
        JSON.parse(exchange.body ?? '')
        return [`body is JSON but not an object: ${show(exchange.body)}`]
      } catch {
        return [`body is not JSON: ${show(exchange.body ?? '')}`]
      }
    },
  },
  {
    id: 'status',
    title: 'status is "approved", "rejected" or "error"',
    scope: 'JSON replies',
    test: ({ reply }) => {
      if (!reply) return undefined
      return STATUSES.includes(reply.status as string) ? [] : [`status is ${show(reply.status)}`]
    },
  },
  {
    id: 'lead-id',
    title: 'lead_id is a non-empty string (at most 200 characters)',
    scope: 'JSON replies',
    test: ({ reply }) => {
      if (!reply) return undefined
      const id = reply.lead_id
      if (typeof id !== 'string' || id.trim() === '') return [`lead_id is ${show(id ?? 'missing')}`]
      return id.length > 200 ? [`lead_id has ${id.length} characters, at most 200`] : []
    },
  },
  {
    // docs/partner-interface.md: reason is "used with `rejected` and `error`".
    id: 'reason',
    title: 'reason is a non-empty string with "rejected" and "error"',
    scope: 'rejected or error replies',
    test: ({ reply }) => {
      if (!reply || (reply.status !== 'rejected' && reply.status !== 'error')) return undefined
      return typeof reply.reason === 'string' && reply.reason.trim() !== ''
        ? []
        : [`status ${show(reply.status)} with reason ${show(reply.reason ?? 'missing')}`]
    },
  },
  {
    // docs/partner-interface.md: offers are required "with approved"; our contract takes 1-50 (docs/partner-interface.md#value-bounds).
    id: 'offers',
    title: 'offers holds 1 to 50 offers with "approved"',
    scope: 'approved replies',
    test: ({ reply }) => {
      if (reply?.status !== 'approved') return undefined
      const offers = reply.offers
      if (!Array.isArray(offers)) return [`approved with offers ${show(offers ?? 'missing')}`]
      if (offers.length === 0) return ['approved with no offers: answer "rejected" with a reason instead']
      return offers.length > 50 ? [`approved with ${offers.length} offers, at most 50`] : []
    },
  },
  {
    id: 'rate',
    title: `every offer has rate, a number from 0 to ${MAX_BID}`,
    scope: 'approved replies with offers',
    test: ({ offers }) =>
      offers &&
      offerProblems(offers, (offer, i) =>
        typeof offer.rate !== 'number' || !Number.isFinite(offer.rate) || offer.rate < 0
          ? `offers.${i}.rate is ${show(offer.rate ?? 'missing')}`
          : offer.rate > MAX_BID
            ? `offers.${i}.rate is ${offer.rate}, over the marketplace's ${MAX_BID} USD ceiling: the offer is dropped`
            : undefined,
      ),
  },
  {
    id: 'click-url',
    title: 'every offer has click_url, https to a public host',
    scope: 'approved replies with offers',
    test: ({ offers }) =>
      offers && offerProblems(offers, (offer, i) => linkProblem(offer.click_url, `offers.${i}.click_url`)),
  },
  {
    // The widget runs on https pages: an http logo is mixed content (docs/partner-interface.md#links-and-endpoints).
    id: 'logo-src',
    title: 'logo_src, when sent, is https to a public host',
    scope: 'approved replies with a logo_src',
    test: ({ offers }) => {
      if (!offers?.some((offer) => isObject(offer) && offer.logo_src !== undefined)) return undefined
      return offerProblems(offers, (offer, i) =>
        offer.logo_src === undefined ? undefined : linkProblem(offer.logo_src, `offers.${i}.logo_src`),
      )
    },
  },
  {
    // docs/partner-interface.md: conditional fields are "required when the partner returns several types of offers".
    id: 'conditional-fields',
    title: 'several offers carry product_type; several product types carry every conditional field',
    scope: 'approved replies with offers',
    test: ({ offers }) =>
      offers && conditionalFieldIssues(offers.filter(isObject)).map((issue) => issue.message),
  },
  {
    id: 'schema',
    title: "reply passes the marketplace's own schema (src/contract/partner.ts)",
    scope: 'JSON replies',
    test: ({ reply }) => {
      if (!reply) return undefined
      const parsed = partnerReplySchema.safeParse(reply)
      return parsed.success ? [] : toFieldIssues(parsed.error).map((issue) => issue.reason)
    },
  },
  {
    // Links end up in browser history and referrer logs, text is shown and stored: an offer whose text, link or
    // terms carry the lead's PII is dropped, by the finder the marketplace runs (docs/decisions/0097). The
    // lead_id is stored too (the marketplace stores it redacted).
    id: 'no-pii',
    title:
      "no offer's text, link or loan_terms, and not lead_id, carries the lead's PII (the marketplace's finder)",
    scope: 'JSON replies',
    test: ({ exchange, reply, offers }) => {
      if (!reply) return undefined
      const findPii = createPiiFinder(exchange.lead.lead)
      const problems: string[] = []
      if (typeof reply.lead_id === 'string') {
        const found = findPii(reply.lead_id)
        if (found !== undefined && found !== 'nested encoding')
          problems.push(`lead_id carries the lead's ${found}`)
      }
      offers?.forEach((offer, i) => {
        const problem = isObject(offer) ? offerPii(offer, i, findPii) : undefined
        if (problem) problems.push(problem)
      })
      return problems
    },
  },
  {
    // Our extension, optional: terms that break the schema are dropped by the marketplace, the offer kept; a
    // payment without a consistent example is dropped alone; a missing designation or copy naming an amount
    // the offer does not lend is what a lender's compliance reviewer would stop.
    id: 'loan-terms',
    title:
      'loan_terms, when sent, are figures the marketplace reads, within the bounds a lender could offer, with offer_kind, a payment only beside a consistent representative_example, and copy naming only amounts the offer lends (docs/partner-interface.md, "Loan terms")',
    scope: 'approved replies with loan_terms',
    severity: 'warning',
    test: ({ offers }) => (offers ? loanTermsProblems(offers) : undefined),
  },
  {
    // docs/partner-interface.md: tcpaLanguage is "present when consentstoTcpa is true": without it the lead is invalid.
    id: 'invalid-lead',
    title: 'a lead that breaks the contract is not approved',
    scope: 'invalid leads',
    test: ({ exchange, reply }) => {
      if (!reply || exchange.lead.kind !== 'invalid') return undefined
      return reply.status === 'approved'
        ? [`approved an invalid lead; answer "error" naming ${exchange.lead.invalidField ?? 'the field'}`]
        : []
    },
  },
]

function contextOf(exchange: Exchange, settings: CheckSettings): Context {
  if (exchange.outcome !== 'replied') return { exchange, settings }
  let body: unknown
  try {
    body = JSON.parse(exchange.body ?? '')
  } catch {
    return { exchange, settings }
  }
  if (!isObject(body)) return { exchange, settings }
  const offers = body.status === 'approved' && Array.isArray(body.offers) && body.offers.length > 0
  return { exchange, settings, reply: body, ...(offers ? { offers: body.offers as unknown[] } : {}) }
}

/** docs/partner-interface.md says nothing of transport; leads carry SSNs, so anything but loopback must be https. */
export function endpointCheck(url: string): CheckResult {
  const parsed = new URL(url)
  const base = {
    id: 'https-endpoint',
    title: 'the endpoint uses https',
    failures: [] as CheckFailure[],
    warnings: [] as CheckFailure[],
  }
  if (parsed.protocol === 'https:') return { ...base, ok: true, detail: 'https' }
  if (isLoopbackHost(parsed.hostname))
    return { ...base, ok: true, detail: 'http on loopback: fine for development, use https in production' }
  const message = 'http to a non-loopback host: leads carry SSNs, serve the endpoint over https'
  return { ...base, ok: false, detail: message, failures: [{ lead: '(endpoint)', message }] }
}

/** Runs every check over every exchange; one result per check, in the order of `CHECKS`. */
export function evaluateExchanges(exchanges: readonly Exchange[], settings: CheckSettings): CheckResult[] {
  const contexts = exchanges.map((exchange) => contextOf(exchange, settings))
  const results = CHECKS.map((check): CheckResult => {
    let exercised = 0
    const failures: CheckFailure[] = []
    for (const context of contexts) {
      const problems = check.test(context)
      if (problems === undefined) continue
      exercised += 1
      for (const message of problems) failures.push({ lead: context.exchange.lead.id, message })
    }
    const warning = check.severity === 'warning'
    const kind = warning ? 'warning' : 'failure'
    const detail =
      exercised === 0
        ? `not exercised: no ${check.scope}`
        : failures.length === 0
          ? `${exercised} ${check.scope}`
          : `${failures.length} ${kind}${failures.length === 1 ? '' : 's'} in ${exercised} ${check.scope}`
    return {
      id: check.id,
      title: check.title,
      ok: warning || failures.length === 0,
      detail,
      failures: warning ? [] : failures,
      warnings: warning ? failures : [],
    }
  })
  return [endpointCheck(settings.url), ...results]
}
