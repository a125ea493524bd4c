/**
 * @module Pure parts of the checks: URL rules, the endpoint transport rule, aggregation into one line each.
 */
import { describe, expect, it } from 'vitest'
import {
  type Exchange,
  endpointCheck,
  evaluateExchanges,
  httpsUrlProblem,
} from '../../src/partner-kit/reply-checks.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'

const settings = { url: 'https://partner.example.com/leads', windowMs: 12_000, abortMs: 15_000 }
const [complete, minimal] = sampleLeads()

function replied(body: unknown, lead = complete): Exchange {
  if (!lead) throw new Error('no sample')
  return {
    lead,
    ms: 5,
    outcome: 'replied',
    httpStatus: 200,
    contentType: 'application/json',
    body: JSON.stringify(body),
  }
}

describe('httpsUrlProblem', () => {
  it('accepts absolute https URLs only', () => {
    expect(httpsUrlProblem('https://a.example.com/x?y=1', 'click_url')).toBeUndefined()
    expect(httpsUrlProblem('http://a.example.com', 'click_url')).toMatch(/uses http, must be https/)
    expect(httpsUrlProblem('/relative', 'click_url')).toMatch(/not an absolute URL/)
    expect(httpsUrlProblem('javascript:alert(1)', 'click_url')).toMatch(/must be https/)
    expect(httpsUrlProblem(undefined, 'click_url')).toMatch(/missing/)
  })
})

describe('endpointCheck', () => {
  it('passes https, and http on loopback with a production note', () => {
    expect(endpointCheck('https://partner.example.com/leads').ok).toBe(true)
    expect(endpointCheck('http://127.0.0.1:9999/leads')).toMatchObject({ ok: true, detail: /loopback/ })
    expect(endpointCheck('http://localhost:9999/leads').ok).toBe(true)
  })

  it('fails plain http to another host: leads carry SSNs', () => {
    expect(endpointCheck('http://partner.example.com/leads')).toMatchObject({ ok: false, detail: /SSN/ })
  })
})

describe('evaluateExchanges', () => {
  it('gives one result per check, says when a check was not exercised', () => {
    const results = evaluateExchanges([replied({ status: 'rejected', lead_id: 'a', reason: 'no' })], settings)
    expect(results).not.toHaveLength(0)
    expect(results.filter((r) => !r.ok).map((r) => r.id)).toEqual([])
    expect(new Set(results.map((r) => r.id)).size).toBe(results.length)
    expect(results.find((r) => r.id === 'offers')?.detail).toBe('not exercised: no approved replies')
  })

  it('names the lead of each failure', () => {
    const results = evaluateExchanges(
      [
        replied({ status: 'approved', lead_id: 'a', offers: [] }),
        replied({ status: 'error', lead_id: 'b', reason: 'x' }, minimal),
      ],
      settings,
    )
    expect(results.find((r) => r.id === 'offers')?.failures).toEqual([
      { lead: 'complete', message: 'approved with no offers: answer "rejected" with a reason instead' },
    ])
  })

  it('one offer needs no conditional field; two of one type need product_type (README, Decisions)', () => {
    const offer = { rate: 1, click_url: 'https://p.example.com/1' }
    const one = evaluateExchanges([replied({ status: 'approved', lead_id: 'a', offers: [offer] })], settings)
    expect(one.find((r) => r.id === 'conditional-fields')?.ok).toBe(true)
    const two = evaluateExchanges(
      [replied({ status: 'approved', lead_id: 'a', offers: [offer, offer] })],
      settings,
    )
    expect(two.find((r) => r.id === 'conditional-fields')?.failures.map((f) => f.message)).toEqual([
      'offers.0.product_type is required when a reply carries several offers',
      'offers.1.product_type is required when a reply carries several offers',
    ])
  })

  it('finds the email in a URL-encoded click URL and the SSN in lead_id', () => {
    const results = evaluateExchanges(
      [
        replied({
          status: 'approved',
          lead_id: '987654320',
          offers: [{ rate: 1, click_url: 'https://p.example.com/?e=synthetic.lead0%40example.com' }],
        }),
      ],
      settings,
    )
    expect(results.find((r) => r.id === 'no-pii')?.failures.map((f) => f.message)).toEqual([
      "lead_id contains the lead's SSN",
      "offers.0.click_url contains the lead's email",
    ])
  })

  it('a JSON array is not a reply object', () => {
    const results = evaluateExchanges([replied([1, 2])], settings)
    expect(results.find((r) => r.id === 'json')?.failures[0]?.message).toMatch(/not an object/)
  })
})
