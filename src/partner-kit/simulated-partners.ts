/**
 * @module Simulated partners over real HTTP (the partner side, as the reference partner is: the marketplace
 * only sees their registry entries): one node:http server on a loopback ephemeral port, one path
 * per partner (`POST /partners/<id>`), each with a behaviour and a latency. The default set is the
 * sandbox's registry, so `npm start` shows the marketplace with no setup: three first-look partners that
 * never approve (rejecting, erroring, answering garbage), so the lead goes on to three second-look ones
 * (fast, slow, and one past the 12 s window). Approvals come from the partner kit's reference rules, loan
 * offers with their `loan_terms` figures (debt relief, which has no APR, without).
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readCappedBody } from '../http/read-capped-body.ts'
import { systemTimers, type TimerHandle, type Timers } from '../http/timers.ts'
import {
  humanize,
  MAX_PARTNER_TIMEOUT_MS,
  type PartnerDisplay,
  type PartnerRegistryEntry,
  type PartnerTier,
} from '../marketplace/registry/partner-registry.ts'
import { answerLead } from './answer-lead.ts'

export type SimulatedBehavior =
  /** The reference partner's answer: approved with offers when the rules fit, else rejected. */
  | 'approve'
  | 'reject'
  /** Rejects with a reason that echoes the lead's SSN and email: a careless partner. */
  | 'reject-echoing-lead'
  /** Approves like `approve`, with a `lead_id` built on the lead's SSN: a careless partner. */
  | 'approve-ssn-lead-id'
  /** Approves like `approve`, with the lead's SSN in every `click_url`: a contract error. */
  | 'approve-ssn-click-url'
  | 'error'
  /** 200 with an HTML body. */
  | 'garbage'
  /** 200 with JSON that breaks the contract. */
  | 'malformed'
  /** 200 with a body far past the marketplace's cap. */
  | 'oversized'
  /** 503 with a contract error body. */
  | 'http-error'

export interface SimulatedPartnerSpec {
  id: string
  name: string
  tier: PartnerTier
  behavior: SimulatedBehavior
  latencyMs: number
  /** Scales the reference bids, so partners built on the same rules bid differently. */
  bidMultiplier?: number
  scoreFactor?: number
  timeoutMs?: number
  enabled?: boolean
  display?: Partial<PartnerDisplay>
}

export interface SimulatedLatencies {
  fast: number
  slow: number
  /** Past the 12 s window by default, so this partner is recorded as timed out. */
  late: number
}

/** The simulated partner whose own reports token `npm start` prints in sandbox mode. */
export const SANDBOX_REPORTS_PARTNER = { id: 'sim-fast', name: 'Sim Quick Loans' } as const

const DEFAULT_SIMULATED_LATENCIES: SimulatedLatencies = { fast: 120, slow: 2_500, late: 12_500 }

export function defaultSimulatedPartners(
  latencies: Partial<SimulatedLatencies> = {},
): SimulatedPartnerSpec[] {
  const l = { ...DEFAULT_SIMULATED_LATENCIES, ...latencies }
  return [
    { id: 'sim-rejecting', name: 'Sim Prime Lending', tier: 'first', behavior: 'reject', latencyMs: l.fast },
    { id: 'sim-erroring', name: 'Sim Flaky Bank', tier: 'first', behavior: 'error', latencyMs: l.fast },
    { id: 'sim-garbage', name: 'Sim Garbled Credit', tier: 'first', behavior: 'garbage', latencyMs: l.fast },
    { id: 'sim-fast', name: 'Sim Quick Loans', tier: 'second', behavior: 'approve', latencyMs: l.fast },
    {
      id: 'sim-slow',
      name: 'Sim Steady Finance',
      tier: 'second',
      behavior: 'approve',
      latencyMs: l.slow,
      bidMultiplier: 1.15,
    },
    {
      id: 'sim-late',
      name: 'Sim Tardy Lender',
      tier: 'second',
      behavior: 'approve',
      latencyMs: l.late,
      bidMultiplier: 2,
    },
  ]
}

export interface StartSimulatedPartnersOptions {
  /** The partners to simulate; the default set otherwise. */
  partners?: SimulatedPartnerSpec[]
  /** Latencies of the default set (tests pass tiny ones). */
  latencies?: Partial<SimulatedLatencies>
  /** Keep every lead received, per partner (tests only: a lead holds an SSN). */
  recordLeads?: boolean
  /** Latencies and the reference rules' clock run on these; the system's by default, fake ones in tests. */
  timers?: Timers
  /** The own reports token of `SANDBOX_REPORTS_PARTNER` in the entries, so a partner's view can be tried. */
  reportsToken?: string | undefined
}

export interface SimulatedPartners {
  /** Registry entries pointing at the simulated endpoints, auth header included. */
  entries: PartnerRegistryEntry[]
  /** Base URL of the server, e.g. `http://127.0.0.1:40123`. */
  url: string
  /** Leads received by a partner so far. */
  requestCount(partnerId: string): number
  /** Resolves once `partnerId` has received `count` leads in all (its latency then starts). */
  whenReceived(partnerId: string, count?: number): Promise<void>
  /** The leads a partner received, when `recordLeads` is on. */
  leadsReceived(partnerId: string): unknown[]
  close(): Promise<void>
}

const MAX_LEAD_BYTES = 64 * 1024

// long-function: the sandbox's simulated partners as one server: its handler shares their specs, tokens, counters and timers
export async function startSimulatedPartners(
  options: StartSimulatedPartnersOptions = {},
): Promise<SimulatedPartners> {
  const specs = options.partners ?? defaultSimulatedPartners(options.latencies)
  const byId = new Map(specs.map((spec) => [spec.id, spec]))
  const tokens = new Map(specs.map((spec) => [spec.id, `sim-${randomBytes(16).toString('hex')}`]))
  const clock = options.timers ?? systemTimers
  const counts = new Map<string, number>()
  const waiters: Array<{ id: string; count: number; resolve: () => void }> = []
  const received = new Map<string, unknown[]>()
  const timers = new Set<TimerHandle>()
  const secret = randomBytes(24).toString('hex')
  let baseUrl = ''

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const [, section, id, product] = url.pathname.split('/')
    if (req.method === 'GET' && section === 'landing' && id && byId.has(id)) {
      return send(res, 200, 'text/html; charset=utf-8', landingPage(byId.get(id)?.name ?? id, product ?? ''))
    }
    if (req.method === 'GET' && section === 'logo' && id?.endsWith('.svg')) {
      return send(res, 200, 'image/svg+xml', logoSvg(byId.get(id.slice(0, -4))?.name ?? '?'))
    }
    const spec = section === 'partners' && id ? byId.get(id) : undefined
    if (req.method !== 'POST' || spec === undefined) return send(res, 404, 'text/plain', 'not found')
    if (req.headers.authorization !== `Bearer ${tokens.get(spec.id)}`) {
      return send(
        res,
        401,
        'application/json',
        JSON.stringify({ status: 'error', lead_id: 'unauthenticated', reason: 'bad credentials' }),
      )
    }
    const raw = await readCappedBody(req, MAX_LEAD_BYTES, {
      what: 'lead',
      contentLength: req.headers['content-length'],
    })
    const count = (counts.get(spec.id) ?? 0) + 1
    counts.set(spec.id, count)
    for (const waiter of waiters.filter((w) => w.id === spec.id && w.count <= count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
    let lead: unknown
    try {
      lead = JSON.parse(raw)
    } catch {
      lead = raw
    }
    if (options.recordLeads) received.set(spec.id, [...(received.get(spec.id) ?? []), lead])
    await delay(clock, timers, spec.latencyMs, req)
    if (res.destroyed) return
    reply(res, spec, lead, { count, secret, now: new Date(clock.now()), baseUrl })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const entries = specs
    .map((spec) => registryEntry(spec, baseUrl, tokens.get(spec.id) ?? ''))
    .map((entry) =>
      options.reportsToken !== undefined && entry.id === SANDBOX_REPORTS_PARTNER.id
        ? { ...entry, reportsToken: options.reportsToken }
        : entry,
    )

  return {
    entries,
    url: baseUrl,
    requestCount: (id) => counts.get(id) ?? 0,
    whenReceived: (id, count = 1) =>
      (counts.get(id) ?? 0) >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ id, count, resolve })),
    leadsReceived: (id) => received.get(id) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clock.clearTimeout(timer)
        timers.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The answer of `spec`'s behaviour to `lead`, its `count`-th; links and logos on this server (`baseUrl`). */
function reply(
  res: ServerResponse,
  spec: SimulatedPartnerSpec,
  lead: unknown,
  context: { count: number; secret: string; now: Date; baseUrl: string },
) {
  const { secret, baseUrl } = context
  const leadId = `${spec.id}-${context.count.toString(36)}`
  const json = (status: number, body: unknown) => send(res, status, 'application/json', JSON.stringify(body))
  const ssn = (lead as { personalInformation?: { ssn?: string } }).personalInformation?.ssn ?? ''
  switch (spec.behavior) {
    case 'approve':
    case 'approve-ssn-lead-id':
    case 'approve-ssn-click-url': {
      const answer = answerLead(lead, {
        secret,
        now: context.now,
        partnerName: spec.name,
        bidMultiplier: spec.bidMultiplier ?? 1,
      })
      if (answer.status === 'approved') {
        // Click and logo URLs on this server, so the sandbox's links lead somewhere on this machine.
        const leak = spec.behavior === 'approve-ssn-click-url' ? `?applicant=${ssn}` : ''
        answer.offers = answer.offers.map((offer) => ({
          ...offer,
          click_url: `${baseUrl}/landing/${spec.id}/${encodeURIComponent(offer.product_type ?? 'loan')}${leak}`,
          logo_src: `${baseUrl}/logo/${spec.id}.svg`,
        }))
      }
      if (spec.behavior === 'approve-ssn-lead-id') answer.lead_id = `app-${ssn}`
      return json(200, answer)
    }
    case 'reject':
      return json(200, {
        status: 'rejected',
        lead_id: leadId,
        reason: 'outside our credit box (simulated)',
      })
    case 'reject-echoing-lead': {
      const p = (lead as { personalInformation?: { ssn?: string; email?: string } }).personalInformation
      return json(200, {
        status: 'rejected',
        lead_id: leadId,
        reason: `duplicate of ${p?.ssn} / ${p?.email}`,
      })
    }
    case 'error':
      return json(200, {
        status: 'error',
        lead_id: leadId,
        reason: 'underwriting service unavailable (simulated)',
      })
    case 'garbage':
      return send(res, 200, 'text/html', '<html><body>502 Bad Gateway</body></html>')
    case 'malformed':
      return json(200, {
        status: 'approved',
        lead_id: leadId,
        offers: [{ rate: 'ten', click_url: 'nope' }],
      })
    case 'oversized':
      return json(200, { status: 'rejected', lead_id: leadId, reason: 'x'.repeat(1024 * 1024) })
    case 'http-error':
      return json(503, { status: 'error', lead_id: leadId, reason: 'maintenance window (simulated)' })
  }
}

/** Waits `ms` on `clock`, or until the marketplace hangs up (it timed out: nobody will read the answer). */
function delay(clock: Timers, pending: Set<TimerHandle>, ms: number, req: IncomingMessage): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = clock.setTimeout(done, ms)
    pending.add(timer)
    // The marketplace gave up (timeout): stop waiting, nobody will read the answer.
    req.socket.once('close', done)
    function done() {
      clock.clearTimeout(timer)
      pending.delete(timer)
      req.socket.off('close', done)
      resolve()
    }
  })
}

/** The registry entry of a simulated partner served at `baseUrl`. */
function registryEntry(spec: SimulatedPartnerSpec, baseUrl: string, token: string): PartnerRegistryEntry {
  const productType = spec.display?.productType ?? 'installment_loan'
  return {
    id: spec.id,
    name: spec.name,
    tier: spec.tier,
    endpoint: `${baseUrl}/partners/${spec.id}`,
    auth: { header: 'Authorization', value: `Bearer ${token}` },
    timeoutMs: spec.timeoutMs ?? MAX_PARTNER_TIMEOUT_MS,
    scoreFactor: spec.scoreFactor ?? 1,
    enabled: spec.enabled ?? true,
    // Their links and logos are on this loopback server.
    sandbox: true,
    display: {
      name: spec.display?.name ?? spec.name,
      logoUrl: spec.display?.logoUrl ?? `${baseUrl}/logo/${spec.id}.svg`,
      productType,
      productDisplayName: spec.display?.productDisplayName ?? humanize(productType),
      copy: spec.display?.copy ?? `${spec.name}: a simulated second-look partner.`,
      disclaimer: spec.display?.disclaimer ?? 'Simulated partner for the sandbox; no real offer.',
    },
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

function landingPage(name: string, product: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(name)}</title>
<h1>${escapeHtml(name)}</h1><p>Simulated partner landing page for ${escapeHtml(humanize(decodeURIComponent(product) || 'loan'))}. In production this is the partner's <code>click_url</code>.</p></html>`
}

function logoSvg(name: string): string {
  const initials = name
    .split(/\s+/)
    .filter((w) => w && w !== 'Sim')
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3567c6"/><text x="32" y="41" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`
}
