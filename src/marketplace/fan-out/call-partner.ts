/**
 * @module One lead to one partner over HTTP: POST the lead JSON, read at most `maxBodyBytes` of the reply,
 * validate it against seed 001, and turn whatever happens (timeout, refused connection, non-2xx, garbage,
 * an oversized body, a contract violation) into an outcome with its cause. It never throws.
 */
import { type Dispatcher, request } from 'undici'
import { toFieldIssues } from '../../contract/common.ts'
import { type PartnerOffer, partnerReplySchema } from '../../contract/partner.ts'

/** Cap on a reply body: 50 offers of generous size fit in far less. */
export const DEFAULT_MAX_REPLY_BYTES = 256 * 1024

export interface PartnerEndpoint {
  id: string
  endpoint: string
  auth?: { header: string; value: string } | undefined
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
  maxBodyBytes?: number
  /** Aborts the call when the marketplace shuts down. */
  shutdown?: AbortSignal | undefined
}

const USER_AGENT = 'offer-widget-marketplace/1'

export async function callPartner(
  partner: PartnerEndpoint,
  leadJson: string,
  options: CallOptions,
): Promise<PartnerOutcome> {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_REPLY_BYTES
  const started = performance.now()
  const elapsed = () => performance.now() - started
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(
    () => {
      timedOut = true
      controller.abort()
    },
    Math.max(0, options.timeoutMs),
  )
  const onShutdown = () => controller.abort()
  options.shutdown?.addEventListener('abort', onShutdown, { once: true })
  const fail = (reason: string, httpStatus?: number): PartnerOutcome => ({
    status: 'error',
    reason,
    httpStatus,
    offers: [],
    latencyMs: elapsed(),
  })

  try {
    const response = await request(partner.endpoint, {
      method: 'POST',
      dispatcher: options.dispatcher,
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...(partner.auth ? { [partner.auth.header]: partner.auth.value } : {}),
      },
      body: leadJson,
    })
    const status = response.statusCode
    const declared = Number(response.headers['content-length'])
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.body.destroy()
      return fail(`reply of ${declared} bytes exceeds the ${maxBytes}-byte limit`, status)
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBytes) {
        response.body.destroy()
        return fail(`reply exceeds the ${maxBytes}-byte limit`, status)
      }
      chunks.push(chunk)
    }
    const text = Buffer.concat(chunks).toString('utf8')
    let json: unknown
    let parsedJson = true
    try {
      json = JSON.parse(text)
    } catch {
      parsedJson = false
    }
    // Seed 001: "HTTP status codes of the partner endpoint's replies: not shown." Only 2xx carries a
    // reply; any other status is an error, with the partner's reason when its body is a contract reply.
    if (status < 200 || status > 299) {
      const reply = parsedJson ? partnerReplySchema.safeParse(json) : undefined
      const partnerReason = reply?.success && reply.data.reason ? `: ${reply.data.reason}` : ''
      return fail(`HTTP ${status} from the partner${partnerReason}`, status)
    }
    if (!parsedJson) return fail(`reply is not JSON (${size} bytes)`, status)
    const reply = partnerReplySchema.safeParse(json)
    if (!reply.success) {
      const issues = toFieldIssues(reply.error)
        .slice(0, 5)
        .map((issue) => `${issue.field}: ${issue.reason}`)
      return fail(`reply breaks the partner contract (${issues.join('; ')})`, status)
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
  } catch (error) {
    if (timedOut) {
      return {
        status: 'timeout',
        reason: `no reply within ${options.timeoutMs} ms`,
        offers: [],
        latencyMs: elapsed(),
      }
    }
    if (options.shutdown?.aborted) return fail('the marketplace shut down before the reply')
    return fail(`request failed: ${describeError(error)}`)
  } finally {
    clearTimeout(timer)
    options.shutdown?.removeEventListener('abort', onShutdown)
  }
}

/** A transport error's code and message, without anything the partner could have put in it. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error'
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code
  const name = typeof code === 'string' ? code : error.name
  return `${name} ${error.message}`.slice(0, 300)
}
