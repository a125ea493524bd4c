/**
 * @module The checker end to end over loopback HTTP: it passes the reference partner and fails, naming the
 * check, against deliberately broken partners. Slow partners answer on a fake clock that is also the
 * checker's, so the real 12 s window and its 3 s margin are tested and nothing waits for them.
 */
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  ABORT_MARGIN_MS,
  type CheckPartnerOptions,
  checkPartner,
  RESPONSE_WINDOW_MS,
  SYNTHETIC_HEADER,
} from '../../src/partner-kit/conformance-checker.ts'
import { formatReport } from '../../src/partner-kit/format-report.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'
import { type RunningPartner, startReferencePartner } from '../../src/partner-kit/start-reference-partner.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import { watch } from '../support/promises.ts'
import {
  type LoopbackPartner,
  referenceReply,
  type ScriptedAnswer,
  startLoopbackPartner,
} from './support/loopback-partner.ts'

let partners: Array<LoopbackPartner | RunningPartner> = []
afterEach(async () => {
  await Promise.all(partners.map((p) => p.close()))
  partners = []
})

async function broken(script: (body: string) => ScriptedAnswer, clock?: FakeClock): Promise<LoopbackPartner> {
  const partner = await startLoopbackPartner(script, clock ? { timers: clock.timers } : {})
  partners.push(partner)
  return partner
}

async function failedChecks(script: (body: string) => ScriptedAnswer, options: CheckPartnerOptions = {}) {
  const partner = await broken(script)
  const report = await checkPartner(partner.url, { concurrency: 10, ...options })
  expect(report.ok).toBe(false)
  return report.checks.filter((c) => !c.ok).map((c) => c.id)
}

/** The reference reply with one thing changed. */
const tweak =
  (change: (reply: Record<string, unknown>) => void) =>
  (body: string): ScriptedAnswer => {
    const reply = referenceReply(body) as unknown as Record<string, unknown>
    change(reply)
    return { body: reply }
  }

describe('checkPartner against the reference partner', () => {
  it('passes every check and reports latency', async () => {
    const partner = await startReferencePartner({ port: 0 })
    partners.push(partner)
    const report = await checkPartner(`${partner.url}/leads`)
    expect(report.checks.filter((c) => !c.ok)).toEqual([])
    expect(report.ok).toBe(true)
    // Its loan offers carry terms, and they pass: the loan-terms check is exercised, with nothing to say.
    const terms = report.checks.find((c) => c.id === 'loan-terms')
    expect(terms?.detail).toMatch(/^\d+ approved replies with loan_terms$/)
    expect(terms?.warnings).toEqual([])
    expect(report.leads).toHaveLength(sampleLeads().length)
    expect(report.latency.samples).toBe(sampleLeads().length)
    expect(report.latency.maxMs).toBeGreaterThanOrEqual(report.latency.p95Ms)
    expect(report.latency.p95Ms).toBeGreaterThanOrEqual(report.latency.p50Ms)
    expect(report.leads.find((l) => l.id === 'tcpa-without-language')?.status).toBe('error')
    expect(report.leads.find((l) => l.id === 'likely-rejected')?.status).toBe('rejected')
  })

  it('exercises approved offers with several product types (the conditional-fields check is not vacuous)', async () => {
    const partner = await startReferencePartner({ port: 0 })
    partners.push(partner)
    const report = await checkPartner(`${partner.url}/`)
    expect(report.checks.find((c) => c.id === 'conditional-fields')?.detail).not.toMatch(/not exercised/)
    expect(report.leads.find((l) => l.id === 'complete')?.offers).toBe(2)
  })
})

describe('checkPartner against broken partners', () => {
  // Every lead is in flight at once (concurrency 10), so each is sent at the same fake instant.
  const LEADS = sampleLeads().length

  /** The checker against a partner answering each lead `delayMs` of fake time after it arrives. */
  async function checkOnClock(delayMs: number, options: CheckPartnerOptions = {}) {
    const clock = createFakeClock()
    const partner = await broken((body) => ({ body: referenceReply(body), delayMs }), clock)
    const report = watch(checkPartner(partner.url, { concurrency: 10, ...options, timers: clock.timers }))
    await partner.whenReceived(LEADS)
    return { clock, report }
  }

  it('too slow: no reply by the window plus its margin (12 s + 3 s) fails "window"; each lead is aborted there', async () => {
    const { clock, report: checking } = await checkOnClock(60_000)
    await clock.tick(RESPONSE_WINDOW_MS + ABORT_MARGIN_MS - 1)
    expect(checking.settled()).toBe(false)
    await clock.tick(1)
    const report = await checking.promise
    const window = report.checks.find((c) => c.id === 'window')
    expect(window?.ok).toBe(false)
    expect(window?.failures[0]?.message).toBe('no reply within 15000 ms: request aborted (window 12000 ms)')
    expect(report.leads).toHaveLength(LEADS)
    for (const lead of report.leads) expect(lead, lead.id).toMatchObject({ outcome: 'timeout', ms: 15_000 })
    expect(report.latency.maxMs).toBe(15_000)
    expect(report.ok).toBe(false)
  })

  it('late: a reply after the 12 s window but before the abort fails "window" and is still judged', async () => {
    const { clock, report: checking } = await checkOnClock(13_000)
    await clock.tick(13_000)
    const report = await checking.promise
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['window'])
    expect(report.checks.find((c) => c.id === 'window')?.failures[0]?.message).toBe(
      'replied after 13000 ms, past the 12000 ms window',
    )
    expect(report.leads).toHaveLength(LEADS)
    for (const lead of report.leads) expect(lead, lead.id).toMatchObject({ outcome: 'replied', ms: 13_000 })
  })

  it('on time: a reply at 12 s exactly is within the window', async () => {
    const { clock, report: checking } = await checkOnClock(12_000)
    await clock.tick(12_000)
    const report = await checking.promise
    expect(report.checks.filter((c) => !c.ok)).toEqual([])
    expect(report.latency).toMatchObject({ samples: LEADS, p50Ms: 12_000, maxMs: 12_000 })
  })

  it('an injected window and margin are used in place of 12 s and 3 s', async () => {
    const { clock, report: checking } = await checkOnClock(60_000, { windowMs: 40, marginMs: 40 })
    await clock.tick(80)
    const report = await checking.promise
    expect(report.checks.find((c) => c.id === 'window')?.failures[0]?.message).toBe(
      'no reply within 80 ms: request aborted (window 40 ms)',
    )
  })

  it('unknown status fails "status"', async () => {
    const failed = await failedChecks(tweak((r) => (r.status = 'pending')))
    expect(failed).toContain('status')
    expect(failed).toEqual(['status', 'schema'])
  })

  it('missing lead_id fails "lead-id"', async () => {
    expect(await failedChecks(tweak((r) => delete r.lead_id))).toEqual(['lead-id', 'schema'])
  })

  it('non-JSON fails "json" and "content-type"', async () => {
    expect(await failedChecks(() => ({ body: 'OK', contentType: 'text/plain' }))).toEqual([
      'content-type',
      'json',
    ])
  })

  it('a JSON body sent as text/html fails "content-type" only', async () => {
    const failed = await failedChecks((body) => ({ body: referenceReply(body), contentType: 'text/html' }))
    expect(failed).toEqual(['content-type'])
  })

  it('an http: click URL fails "click-url" and "schema" (the marketplace refuses the reply)', async () => {
    const failed = await failedChecks(
      tweak((r) => {
        for (const offer of (r.offers as Array<{ click_url: string }> | undefined) ?? [])
          offer.click_url = offer.click_url.replace('https:', 'http:')
      }),
    )
    expect(failed).toEqual(['click-url', 'schema'])
  })

  it('approved with no offers fails "offers"', async () => {
    const failed = await failedChecks(() => ({ body: { status: 'approved', lead_id: 'x1', offers: [] } }))
    expect(failed).toContain('offers')
  })

  it('rejected without reason fails "reason"', async () => {
    expect(await failedChecks(() => ({ body: { status: 'rejected', lead_id: 'x1' } }))).toEqual([
      'reason',
      'schema',
    ])
  })

  it('a non-2xx HTTP status fails "http-status"', async () => {
    const failed = await failedChecks((body) => ({ body: referenceReply(body), status: 500 }))
    expect(failed).toEqual(['http-status'])
  })

  it('approving everything, the invalid lead included, fails "invalid-lead"', async () => {
    const approveAll = tweak((r) => {
      if (r.status === 'approved') return
      r.status = 'approved'
      delete r.reason
      r.offers = [{ rate: 1, click_url: 'https://partner.example.com/c/1' }]
    })
    expect(await failedChecks(approveAll)).toEqual(['invalid-lead'])
  })

  it('several product types without the conditional fields fail "conditional-fields"', async () => {
    const failed = await failedChecks(
      tweak((r) => {
        for (const offer of (r.offers as Array<Record<string, unknown>> | undefined) ?? [])
          delete offer.display_name
      }),
    )
    expect(failed).toEqual(['conditional-fields', 'schema'])
  })

  it('a negative rate fails "rate"', async () => {
    const failed = await failedChecks(
      tweak((r) => {
        for (const offer of (r.offers as Array<Record<string, unknown>> | undefined) ?? []) offer.rate = -1
      }),
    )
    expect(failed).toEqual(['rate', 'schema'])
  })

  it('an http logo fails "logo-src" and "schema" (the marketplace refuses the reply)', async () => {
    const failed = await failedChecks(
      tweak((r) => {
        for (const offer of (r.offers as Array<Record<string, unknown>> | undefined) ?? [])
          offer.logo_src = 'http://partner.example.com/logo.svg'
      }),
    )
    expect(failed).toEqual(['logo-src', 'schema'])
  })

  it('the SSN in a click URL fails "no-pii"', async () => {
    const failed = await failedChecks((body) => {
      const reply = referenceReply(body) as unknown as Record<string, unknown>
      const ssn = (JSON.parse(body) as { personalInformation: { ssn: string } }).personalInformation.ssn
      for (const offer of (reply.offers as Array<{ click_url: string }> | undefined) ?? [])
        offer.click_url += `?ssn=${ssn.replaceAll('-', '')}`
      return { body: reply }
    })
    expect(failed).toEqual(['no-pii'])
  })

  it('malformed loan_terms warn under "loan-terms" and the run still passes (the field is optional)', async () => {
    const partner = await broken(
      tweak((r) => {
        for (const offer of (r.offers as Array<Record<string, unknown>> | undefined) ?? [])
          offer.loan_terms = { apr: 'from 5.99%' }
      }),
    )
    const report = await checkPartner(partner.url, { concurrency: 10 })
    expect(report.ok).toBe(true)
    const terms = report.checks.find((c) => c.id === 'loan-terms')
    expect(terms?.warnings.length).toBeGreaterThan(0)
    expect(terms?.warnings[0]?.message).toContain(
      'offers.0.loan_terms must be an object with any of apr_percent, amount_usd, term_months',
    )
    const text = formatReport(report)
    expect(text).toMatch(/\n {2}WARN {2}loan-terms +loan_terms, when sent, are figures/)
    expect(text).toMatch(/PASS: all \d+ checks passed \(1 with warnings\)\n$/)
  })

  it('an unreachable endpoint fails "reachable"', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const report = await checkPartner(`http://127.0.0.1:${port}/leads`)
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['reachable'])
    expect(report.checks.find((c) => c.id === 'reachable')?.failures[0]?.message).toMatch(
      /ECONNREFUSED|connect/i,
    )
  })
})

describe('checkPartner requests', () => {
  it('sends JSON leads with the given headers, marked synthetic, at most `concurrency` at once', async () => {
    const clock = createFakeClock()
    const partner = await broken((body) => ({ body: referenceReply(body), delayMs: 1_000 }), clock)
    const checking = checkPartner(partner.url, {
      headers: [['Authorization', 'Bearer test-token']],
      concurrency: 2,
      timers: clock.timers,
    })
    const leads = sampleLeads().length
    // The partner holds each lead until the clock moves: two arrive, and no more until they are answered.
    for (let received = 2; received < leads + 2; received += 2) {
      await partner.whenReceived(Math.min(received, leads))
      expect(partner.maxInFlight).toBe(2)
      await clock.tick(1_000)
    }
    await checking
    expect(partner.received).toHaveLength(leads)
    expect(partner.maxInFlight).toBe(2)
    for (const { headers, body } of partner.received) {
      expect(headers.authorization).toBe('Bearer test-token')
      expect(headers['content-type']).toBe('application/json')
      expect(headers[SYNTHETIC_HEADER]).toBe('true')
      expect(JSON.parse(body)).toHaveProperty('personalInformation.ssn')
    }
  })

  it('refuses a URL that is not absolute http(s)', async () => {
    await expect(checkPartner('ftp://partner.example.com')).rejects.toThrow(/absolute http\(s\) URL/)
  })
})
