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

  it('warns of malformed loan_terms, naming the field and the fix, and the run still passes', () => {
    const results = evaluateExchanges(
      [
        replied({
          status: 'approved',
          lead_id: 'p-1',
          offers: [
            {
              rate: 1,
              click_url: 'https://p.example.com/a',
              loan_terms: { apr_percent: { min: 30, max: 10 } },
            },
          ],
        }),
      ],
      settings,
    )
    const terms = results.find((r) => r.id === 'loan-terms')
    expect(terms?.ok).toBe(true)
    expect(terms?.failures).toEqual([])
    expect(terms?.detail).toBe('1 warning in 1 approved replies with loan_terms')
    expect(terms?.warnings.map((w) => w.message)).toEqual([
      'offers.0.loan_terms.apr_percent.min must not be greater than offers.0.loan_terms.apr_percent.max: the marketplace drops these terms and shows the offer without them',
    ])
    // Optional: the reply as a whole still passes the marketplace's schema.
    expect(results.find((r) => r.id === 'schema')?.ok).toBe(true)
    expect(results.every((r) => r.ok)).toBe(true)
  })

  it('says nothing of loan_terms when no offer sends them', () => {
    const results = evaluateExchanges(
      [
        replied({
          status: 'approved',
          lead_id: 'p-1',
          offers: [{ rate: 1, click_url: 'https://p.example.com/a' }],
        }),
      ],
      settings,
    )
    expect(results.find((r) => r.id === 'loan-terms')).toMatchObject({
      ok: true,
      warnings: [],
      detail: 'not exercised: no approved replies with loan_terms',
    })
  })

  it("fails no-pii for a figure that is the lead's SSN or phone digits", () => {
    const lead = minimal
    if (!lead) throw new Error('no sample')
    const ssn = lead.lead.personalInformation.ssn.replace(/\D/g, '')
    const phone = lead.lead.personalInformation.primaryPhone.replace(/\D/g, '')
    const results = evaluateExchanges(
      [
        replied(
          {
            status: 'approved',
            lead_id: 'p-1',
            offers: [
              {
                rate: 1,
                click_url: 'https://p.example.com/a',
                // The SSN's digits with a decimal point, and the phone's as a whole number.
                loan_terms: {
                  amount_usd: { min: 1, max: Number(`${ssn.slice(0, 7)}.${ssn.slice(7)}`) },
                  monthly_payment_usd: Number(phone),
                },
              },
            ],
          },
          lead,
        ),
      ],
      settings,
    )
    expect(results.find((r) => r.id === 'no-pii')?.failures.map((f) => f.message)).toEqual([
      "offers.0.loan_terms.amount_usd.max contains the lead's SSN",
      "offers.0.loan_terms.monthly_payment_usd contains the lead's phone number",
    ])
  })
})
