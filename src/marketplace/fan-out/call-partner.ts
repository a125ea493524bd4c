/**
 * @module One lead to one partner over HTTP: POST the lead JSON, read at most `maxBodyBytes` of the reply,
 * validate it against docs/partner-interface.md, and turn whatever happens (timeout, refused connection, non-2xx, garbage,
 * an oversized body, a contract violation) into an outcome with its cause. It never throws. A partner
 * registered in sandbox mode is reached only at an address on this machine or a private network.
 */
import type { LookupFunction } from 'node:net'
import type { Dispatcher } from 'undici'
import { toFieldIssues } from '../../contract/common.ts'
import { type PartnerOffer, partnerReplySchema } from '../../contract/partner.ts'
import { createCappedBody } from '../../http/read-capped-body.ts'
import { systemTimers, type Timers } from '../../http/timers.ts'
import { type PinnedOrigin, pinnedOrigin, sandboxOnlyLookup } from './public-lookup.ts'

/** Cap on a reply body: 50 offers of generous size fit in far less. */
export const DEFAULT_MAX_REPLY_BYTES = 256 * 1024

export interface PartnerEndpoint {
  id: string
  endpoint: string
  auth?: { header: string; value: string } | undefined
  /**
   * Registered in sandbox mode: its host name must resolve to this machine or a private network, judged
   * when the call connects (`sandboxOnlyLookup`).
   */
  sandbox?: boolean | undefined
}

export interface PartnerOutcome {
  status: 'approved' | 'rejected' | 'error' | 'timeout'
  /** The partner's reason, or our description of what went wrong (never the reply body itself). */
  reason?: string | undefined
  httpStatus?: number | undefined
  partnerLeadId?: string | undefined
  offers: PartnerOffer[]
  latencyMs: number
}

export interface CallOptions {
  dispatcher: Dispatcher
  /** This partner's window for this lead. */
  timeoutMs: number
  /**
   * Ends the call as timed out, in place of a timer of its own: the lead's deadline, shared by every
   * partner whose window it is. `timeoutMs` is then only the window the timeout reason names.
   */
  expire?: AbortSignal | undefined
  maxBodyBytes?: number
  /** Aborts the call when the marketplace shuts down. */
  shutdown?: AbortSignal | undefined
  /** The window's timer and the latency's clock; the system's by default, fake ones in tests. */
  timers?: Timers | undefined
  /**
   * Sent as `Idempotency-Key`: our request id for this lead and partner, the same when a replica that took
   * the lead over asks again, so the partner recognises a repeat (docs/partner-interface.md).
   */
  idempotencyKey?: string | undefined
  /** The lookup a sandbox partner's host name is resolved through; `sandboxOnlyLookup()` by default. */
  sandboxLookup?: LookupFunction | undefined
}

const USER_AGENT = 'offer-widget-marketplace/1'

/**
 * Straight on the dispatcher (no `request()` and its body stream): a lead goes to every partner at once,
 * so what each call costs before its request is on the wire delays every partner dispatched after it.
 */
export function callPartner(
  partner: PartnerEndpoint,
  body: string | Buffer,
  options: CallOptions,
): Promise<PartnerOutcome> {
  return new Promise<PartnerOutcome>((resolve) => {
    const call = openCall(options, resolve)
    if (!call.live()) return
    const target = endpointOf(partner)
    const request: Dispatcher.DispatchOptions = {
      origin: target.origin,
      path: target.path,
      method: 'POST',
      headers: options.idempotencyKey
        ? { ...target.headers, 'idempotency-key': options.idempotencyKey }
        : target.headers,
      body,
    }
    const handler = replyHandler(call, options.maxBodyBytes ?? DEFAULT_MAX_REPLY_BYTES)
    dispatchLead(partner, request, options, handler, call)
  })
}

/** One call in flight: how it ends (once), and its window, deadline and shutdown, which end it early. */
interface OpenCall {
  /** False once the call has ended: nothing more is dispatched or read. */
  live(): boolean
  elapsed(): number
  finish(outcome: PartnerOutcome): void
  /** Ends the call with `outcome` and aborts the request (now, or when it reaches a connection). */
  stop(outcome: PartnerOutcome): void
  fail(reason: string, httpStatus?: number): PartnerOutcome
  /** The request's controller, once the dispatcher started it: aborted at once if the call has stopped. */
  started(controller: Dispatcher.DispatchController): void
  /** The request's controller, as any handler callback hands it over. */
  controller(c: Dispatcher.DispatchController): void
}

function openCall(options: CallOptions, resolve: (outcome: PartnerOutcome) => void): OpenCall {
  const timers = options.timers ?? systemTimers
  const startedAt = timers.now()
  let controller: Dispatcher.DispatchController | undefined
  /** Why we stopped the call, once we have: the request is aborted as soon as it can be. */
  let stopped: Error | undefined
  let done = false
  const call: OpenCall = {
    live: () => !done,
    elapsed: () => timers.now() - startedAt,
    fail: (reason, httpStatus) => ({
      status: 'error',
      reason,
      httpStatus,
      offers: [],
      latencyMs: call.elapsed(),
    }),
    finish(outcome) {
      if (done) return
      done = true
      if (timer !== undefined) timers.clearTimeout(timer)
      options.shutdown?.removeEventListener('abort', onShutdown)
      options.expire?.removeEventListener('abort', onExpire)
      resolve(outcome)
    },
    stop(outcome) {
      call.finish(outcome)
      stopped ??= new Error(outcome.reason ?? outcome.status)
      if (controller && !controller.aborted) controller.abort(stopped)
    },
    started(c) {
      controller = c
      if (stopped) c.abort(stopped)
    },
    controller(c) {
      controller ??= c
    },
  }
  const onExpire = () =>
    call.stop({
      status: 'timeout',
      reason: `no reply within ${options.timeoutMs} ms`,
      offers: [],
      latencyMs: call.elapsed(),
    })
  const { expire } = options
  const timer = expire ? undefined : timers.setTimeout(onExpire, Math.max(0, options.timeoutMs))
  const onShutdown = () => call.stop(call.fail('the marketplace shut down before the reply'))
  if (options.shutdown?.aborted) onShutdown()
  else if (expire?.aborted) onExpire()
  else {
    options.shutdown?.addEventListener('abort', onShutdown, { once: true })
    expire?.addEventListener('abort', onExpire, { once: true })
  }
  return call
}

/** Reads the reply into the call: its status, its body up to `maxBytes`, and how the request ended. */
function replyHandler(call: OpenCall, maxBytes: number): Dispatcher.DispatchHandler {
  const reply = createCappedBody(maxBytes, { what: 'reply' })
  let status = 0
  return {
    onRequestStart: (c) => call.started(c),
    onResponseStart(c, statusCode, headers) {
      // 1xx informational answers come before the real one.
      if (statusCode < 200) return
      status = statusCode
      const refused = reply.declare(headers['content-length'])
      if (refused) {
        call.controller(c)
        call.stop(call.fail(refused.message, status))
      }
    },
    onResponseData(c, chunk) {
      if (!call.live()) return
      const refused = reply.push(chunk)
      if (refused) {
        call.controller(c)
        call.stop(call.fail(refused.message, status))
      }
    },
    onResponseEnd() {
      if (!call.live()) return
      call.finish(
        toOutcome(status, reply.text(), reply.size, call.elapsed, (reason) => call.fail(reason, status)),
      )
    },
    onResponseError(_c, error) {
      call.finish(call.fail(`request failed: ${describeError(error)}`))
    },
  }
}

/** The lookup a sandbox partner's name is resolved through by default: the system's, loopback and private only. */
const SANDBOX_LOOKUP = sandboxOnlyLookup()

/**
 * Puts the request on the dispatcher: to the endpoint as written, or, for a partner registered in sandbox
 * mode, to the address its host name resolved to through the sandbox lookup (loopback or private only, the
 * mirror of production's public-only connect), under its own name (`Host`, TLS server name). A name that
 * resolves to a public address fails the call with `ENOTPRIVATE` before anything is sent.
 */
function dispatchLead(
  partner: PartnerEndpoint,
  request: Dispatcher.DispatchOptions,
  options: Pick<CallOptions, 'dispatcher' | 'sandboxLookup'>,
  handler: Dispatcher.DispatchHandler,
  call: OpenCall,
): void {
  const failed = (error: unknown) => call.finish(call.fail(`request failed: ${describeError(error)}`))
  const send = (pinned: PinnedOrigin | undefined) => {
    if (!call.live()) return
    try {
      options.dispatcher.dispatch(pinned ? pinnedRequest(request, pinned) : request, handler)
    } catch (error) {
      failed(error)
    }
  }
  if (partner.sandbox) {
    pinnedOrigin(String(request.origin), options.sandboxLookup ?? SANDBOX_LOOKUP).then(send, failed)
  } else {
    send(undefined)
  }
}

/** `request` sent to the pinned address, carrying the endpoint's own host name. */
function pinnedRequest(
  request: Dispatcher.DispatchOptions,
  pinned: PinnedOrigin,
): Dispatcher.DispatchOptions {
  return {
    ...request,
    origin: pinned.origin,
    headers: { ...(request.headers as Record<string, string>), host: pinned.host },
    // undici's request option for SNI and the certificate's name; not in its public types.
    servername: pinned.servername,
  } as Dispatcher.DispatchOptions
}

/** A whole reply body, as docs/partner-interface.md reads it. */
function toOutcome(
  status: number,
  text: string,
  size: number,
  elapsed: () => number,
  fail: (reason: string) => PartnerOutcome,
): PartnerOutcome {
  let json: unknown
  let parsedJson = true
  try {
    json = JSON.parse(text)
  } catch {
    parsedJson = false
  }
  // docs/partner-interface.md: "HTTP status codes of the partner endpoint's replies: not shown." Only 2xx carries a
  // reply; any other status is an error, with the partner's reason when its body is a contract reply.
  if (status < 200 || status > 299) {
    const reply = parsedJson ? partnerReplySchema.safeParse(json) : undefined
    const partnerReason = reply?.success && reply.data.reason ? `: ${reply.data.reason}` : ''
    return fail(`HTTP ${status} from the partner${partnerReason}`)
  }
  if (!parsedJson) return fail(`reply is not JSON (${size} bytes)`)
  const reply = partnerReplySchema.safeParse(json)
  if (!reply.success) {
    const issues = toFieldIssues(reply.error)
      .slice(0, 5)
      .map((issue) => `${issue.field}: ${issue.reason}`)
    return fail(`reply breaks the partner contract (${issues.join('; ')})`)
  }
  const data = reply.data
  return {
    status: data.status,
    reason: data.reason,
    httpStatus: status,
    partnerLeadId: data.lead_id,
    offers: data.status === 'approved' ? data.offers : [],
    latencyMs: elapsed(),
  }
}

/** Origin, path and headers of a partner, worked out once per registry entry rather than once per lead. */
const targets = new WeakMap<
  PartnerEndpoint,
  { origin: string; path: string; headers: Record<string, string> }
>()

function endpointOf(partner: PartnerEndpoint) {
  let target = targets.get(partner)
  if (target === undefined) {
    const url = new URL(partner.endpoint)
    target = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...(partner.auth ? { [partner.auth.header]: partner.auth.value } : {}),
      },
    }
    targets.set(partner, target)
  }
  return target
}

/** A transport error's code and message, without anything the partner could have put in it. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error'
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code
  const name = typeof code === 'string' ? code : error.name
  return `${name} ${error.message}`.slice(0, 300)
}
