/**
 * @module Pure parts of the checks: URL rules, the endpoint transport rule, aggregation into one line each,
 * and the rules the kit shares with the marketplace (links, the bid ceiling, the PII finder): a reply the
 * kit passes is one the marketplace keeps live.
 */
import { describe, expect, it } from 'vitest'
import type { PartnerOffer } from '../../src/contract/partner.ts'
import { offerProblems } from '../../src/marketplace/fan-out/offer-problems.ts'
import { createPiiFinder } from '../../src/marketplace/fan-out/pii-finder.ts'
import {
  type Exchange,
  endpointCheck,
  evaluateExchanges,
  linkProblem,
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

describe('linkProblem', () => {
  it('takes what the marketplace takes outside sandbox mode: https to a public host', () => {
    expect(linkProblem('https://a.example.com/x?y=1', 'click_url')).toBeUndefined()
    expect(linkProblem('http://a.example.com', 'click_url')).toMatch(/must be https outside sandbox mode/)
    expect(linkProblem('https://10.0.0.7/x', 'click_url')).toMatch(/on a private or reserved network/)
    expect(linkProblem('https://127.0.0.1/x', 'click_url')).toMatch(/the machine itself/)
    expect(linkProblem('/relative', 'click_url')).toMatch(/must be an absolute https URL/)
    expect(linkProblem('javascript:alert(1)', 'click_url')).toMatch(/must be an absolute https URL/)
    expect(linkProblem(undefined, 'click_url')).toMatch(/missing/)
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
      "lead_id carries the lead's SSN",
      "offers.0.click_url carries the lead's email address",
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
      'offers.0.loan_terms.apr_percent.min must not be greater than offers.0.loan_terms.apr_percent.max: the marketplace drops these terms and shows the offer without them (bounds: apr_percent 1-36, amount_usd 100-100000, term_months 3-144, monthly_payment_usd 1-40000, origination_fee_percent 0-12)',
    ])
    // Optional: the reply as a whole still passes the marketplace's schema.
    expect(results.find((r) => r.id === 'schema')?.ok).toBe(true)
    expect(results.every((r) => r.ok)).toBe(true)
  })

  const withTerms = (loanTerms: unknown, offerDetails?: string) =>
    evaluateExchanges(
      [
        replied({
          status: 'approved',
          lead_id: 'p-1',
          offers: [
            {
              rate: 1,
              click_url: 'https://p.example.com/a',
              ...(offerDetails === undefined ? {} : { offer_details: offerDetails }),
              loan_terms: loanTerms,
            },
          ],
        }),
      ],
      settings,
    ).find((r) => r.id === 'loan-terms')
  // The card: 12 000 USD at 17.99 % over 60 months is 304.66 a month.
  const EXAMPLE = { amount_usd: 12_000, apr_percent: 17.99, term_months: 60, monthly_payment_usd: 304.66 }
  const TERMS = {
    offer_kind: 'pre_qualified',
    apr_percent: { min: 17.99, max: 35.99 },
    amount_usd: { min: 9_600, max: 14_400 },
    term_months: { min: 24, max: 60 },
    monthly_payment_usd: 304.66,
    representative_example: EXAMPLE,
  }

  it('has nothing to say of designated terms with a consistent example and copy inside their amounts', () => {
    const check = withTerms(TERMS, 'Borrow $12,000 over 24 to 60 months. From $304.66/mo. No $0 surprises.')
    expect(check?.warnings).toEqual([])
    expect(check?.detail).toBe('1 approved replies with loan_terms')
  })

  it.each<[string, unknown, string | undefined, string]>([
    [
      'a missing offer_kind',
      { ...TERMS, offer_kind: undefined },
      undefined,
      'offers.0.loan_terms.offer_kind is missing: send pre_qualified, pre_approved or advertised',
    ],
    [
      'a payment without its example',
      { ...TERMS, representative_example: undefined },
      undefined,
      'offers.0.loan_terms.monthly_payment_usd dropped: a monthly payment is shown only with its representative_example',
    ],
    [
      'an inconsistent example, with the payment its figures give',
      {
        ...TERMS,
        monthly_payment_usd: 266.87,
        representative_example: { ...EXAMPLE, monthly_payment_usd: 266.87 },
      },
      undefined,
      'offers.0.loan_terms.representative_example dropped: its monthly_payment_usd is not the amortised payment of its amount_usd at its apr_percent over its term_months (within 1/8 of a point of APR): send the payment those figures give (its figures give 304.66 a month)',
    ],
    [
      'copy naming an amount the offer does not lend',
      TERMS,
      'Borrow up to $50,000 over 24 to 60 months.',
      "offers.0.offer_details names $50,000, outside the offer's amounts (9600-14400 USD in amount_usd and representative_example): name only amounts this offer lends",
    ],
    [
      'copy naming an amount in thousands past the range',
      TERMS,
      'Loans from $1K to $14.4K.',
      'offers.0.offer_details names $1,000, outside',
    ],
    [
      'an APR no lender offers, naming the bounds',
      { ...TERMS, apr_percent: { min: 17.99, max: 99 } },
      undefined,
      'offers.0.loan_terms.apr_percent.max must be at most 36: the marketplace drops these terms and shows the offer without them (bounds: apr_percent 1-36,',
    ],
  ])('warns of %s, and the run still passes', (_name, terms, copy, message) => {
    const check = withTerms(JSON.parse(JSON.stringify(terms)), copy)
    expect(check?.ok).toBe(true)
    expect(check?.warnings.map((w) => w.message)).toContainEqual(expect.stringContaining(message))
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
            // The SSN's digits with a decimal point, and the phone's as a whole number: one an offer, as the
            // marketplace names the first PII an offer carries and drops it.
            offers: [
              {
                rate: 1,
                click_url: 'https://p.example.com/a',
                loan_terms: { amount_usd: { min: 1, max: Number(`${ssn.slice(0, 7)}.${ssn.slice(7)}`) } },
              },
              {
                rate: 1,
                click_url: 'https://p.example.com/b',
                loan_terms: { monthly_payment_usd: Number(phone) },
              },
            ],
          },
          lead,
        ),
      ],
      settings,
    )
    expect(results.find((r) => r.id === 'no-pii')?.failures.map((f) => f.message)).toEqual([
      "offers.0.loan_terms.amount_usd.max carries the lead's SSN",
      "offers.1.loan_terms.monthly_payment_usd carries the lead's phone number",
    ])
  })

  it('fails what the old copy of the rules passed and the marketplace drops live', async () => {
    const lead = complete
    if (!lead) throw new Error('no sample')
    const info = lead.lead.personalInformation
    const ssn = info.ssn.replace(/\D/g, '')
    const offers = [
      // A private host: https, but not one a visitor can reach.
      { rate: 1, click_url: 'https://10.1.2.3/offer', product_type: 'personal_loan' },
      // A bid past the ceiling that keeps every report total finite.
      { rate: 20_000, click_url: 'https://p.example.com/b', product_type: 'personal_loan' },
      // The date of birth in the text shown to the visitor.
      {
        rate: 2,
        click_url: 'https://p.example.com/c',
        offer_details: `Pre-qualified for the applicant born ${info.dateOfBirth}`,
        product_type: 'personal_loan',
      },
      // The SSN split over two query parameters.
      {
        rate: 3,
        click_url: `https://p.example.com/d?a=${ssn.slice(0, 5)}&b=${ssn.slice(5)}`,
        product_type: 'personal_loan',
      },
      { rate: 4, click_url: 'https://p.example.com/e', product_type: 'personal_loan' },
    ]
    const results = evaluateExchanges(
      [replied({ status: 'approved', lead_id: 'p-1', offers }, lead)],
      settings,
    )
    const failed = (id: string) => results.find((r) => r.id === id)?.failures.map((f) => f.message) ?? []
    expect(failed('click-url')).toEqual([
      expect.stringMatching(/^offers\.0\.click_url .* private or reserved network/),
    ])
    expect(failed('rate')).toEqual([
      expect.stringMatching(/^offers\.1\.rate is 20000, over the marketplace's 10000 USD ceiling/),
    ])
    expect(failed('no-pii')).toEqual([
      "offers.2.offer_details carries the lead's date of birth",
      "offers.3.click_url carries the lead's SSN",
    ])
    // The marketplace itself, on the same offers: it drops exactly these four and keeps the last.
    const live = await offerProblems(offers as PartnerOffer[], {
      findPii: createPiiFinder(lead.lead),
      publicLinksOnly: true,
      yieldToLoop: async () => {},
    })
    expect(live.kept.map((k) => k.position)).toEqual([4])
    expect(live.dropped.map((d) => d.slice(0, 'offers[0]'.length))).toEqual([
      'offers[0]',
      'offers[1]',
      'offers[2]',
      'offers[3]',
    ])
  })
})
