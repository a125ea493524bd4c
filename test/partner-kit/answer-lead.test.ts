/**
 * @module The reference partner's pure answer: validation, decision, complete offers.
 */
import { describe, expect, it } from 'vitest'
import { partnerLoanTermsSchema } from '../../src/contract/loan-terms.ts'
import { trimLoanTerms } from '../../src/contract/loan-terms-example.ts'
import { partnerReplySchema } from '../../src/contract/partner.ts'
import { answerLead, answerUnparseable } from '../../src/partner-kit/answer-lead.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'

const options = { secret: 'a-test-secret-of-some-length', now: new Date('2026-06-15T00:00:00Z') }
const byId = (id: string) => {
  const sample = sampleLeads().find((s) => s.id === id)
  if (!sample) throw new Error(id)
  return sample.lead
}

describe('answerLead', () => {
  it('approves the complete lead with two product types, every conditional field on every offer', () => {
    const reply = answerLead(byId('complete'), options)
    expect(partnerReplySchema.safeParse(reply).success).toBe(true)
    expect(reply.status).toBe('approved')
    if (reply.status !== 'approved') return
    expect(reply.offers.map((o) => o.product_type)).toEqual(['installment_loan', 'debt_relief'])
    for (const offer of reply.offers) {
      for (const field of ['name', 'display_name', 'offer_details', 'product_type', 'logo_src'] as const)
        expect(offer[field], field).toBeTruthy()
      expect(offer.click_url.startsWith('https://')).toBe(true)
      expect(offer.click_url).toContain(reply.lead_id)
    }
  })

  it('answers the same lead twice with the same lead_id', () => {
    expect(answerLead(byId('complete'), options).lead_id).toBe(answerLead(byId('complete'), options).lead_id)
  })

  it('keeps PII out of lead_id and click_url', () => {
    const reply = answerLead(byId('complete'), options)
    const text = JSON.stringify(reply)
    expect(text).not.toMatch(/987-?65-?432/)
    expect(text).not.toContain('@example.com')
    expect(text).not.toMatch(/555-?01/)
  })

  it('answers error naming the field for a lead that breaks the contract (tcpaLanguage)', () => {
    const reply = answerLead(byId('tcpa-without-language'), options)
    expect(reply.status).toBe('error')
    expect(reply.status === 'error' && reply.reason).toMatch(/legalInformation\.tcpaLanguage is required/)
  })

  it('takes a lead with the placement an opted-in partner is sent (docs/placements.md), and names a bad one', () => {
    const placed = answerLead({ ...byId('complete'), placement: 'home-hero' }, options)
    expect(placed).toEqual(answerLead(byId('complete'), options))
    const bad = answerLead({ ...byId('complete'), placement: 'has space' }, options)
    expect(bad.status).toBe('error')
    expect(bad.status === 'error' && bad.reason).toMatch(/placement must be 1 to 40/)
  })

  it('names every missing field of an empty object', () => {
    const reply = answerLead({}, options)
    expect(reply.status).toBe('error')
    expect(reply.status === 'error' && reply.reason).toMatch(/personalInformation.*loanInformation/)
  })

  it("rejects with the rules' reason", () => {
    const reply = answerLead(byId('likely-rejected'), options)
    expect(reply).toMatchObject({ status: 'rejected', reason: expect.stringContaining('no product fits') })
  })

  it('scales bids and uses the partner name, click base and logo it is given', () => {
    const reply = answerLead(byId('always-available'), {
      ...options,
      bidMultiplier: 2,
      partnerName: 'Sim Lender 2',
      clickBaseUrl: 'https://sim2.example.net/c/',
      logoUrl: 'https://sim2.example.net/logo.png',
    })
    expect(reply.status === 'approved' && reply.offers[0]).toMatchObject({
      rate: 60,
      name: 'Sim Lender 2',
      // docs/partner-interface.md: display_name is the "name shown to the lead": the lender's, not the product's.
      display_name: 'Sim Lender 2',
      click_url: `https://sim2.example.net/c/${reply.lead_id}/installment_loan`,
      logo_src: 'https://sim2.example.net/logo.png',
    })
  })

  it("puts the amount and term first in offer_details: the lead's own amount, else the range lent", () => {
    const withAmount = byId('complete') as { loanInformation: { loanAmount?: number } }
    const reply = answerLead(withAmount, options)
    if (reply.status !== 'approved') throw new Error(reply.status)
    const amount = withAmount.loanInformation.loanAmount?.toLocaleString('en-US')
    expect(reply.offers[0]?.offer_details).toMatch(
      new RegExp(`^Borrow \\$${amount} over 24 to 60 months\\. `),
    )
    const { loanAmount: _, ...withoutAmount } = withAmount.loanInformation
    const ranged = answerLead({ ...withAmount, loanInformation: withoutAmount }, options)
    expect(ranged.status === 'approved' && ranged.offers[0]?.offer_details).toMatch(
      /^Borrow \$1,000 to \$50,000 over 24 to 60 months\. /,
    )
  })
})

describe('answerLead: loan terms', () => {
  it('quotes the complete lead figures derived from it: pre-qualified, fair-tier APR, amount around 15 000, the payment with its example', () => {
    const reply = answerLead(byId('complete'), options)
    if (reply.status !== 'approved') throw new Error(reply.status)
    const [loan, relief] = reply.offers
    expect(loan?.loan_terms).toEqual({
      offer_kind: 'pre_qualified',
      apr_percent: { min: 17.99, max: 35.99 },
      amount_usd: { min: 12_000, max: 18_000 },
      term_months: { min: 24, max: 60 },
      monthly_payment_usd: 541.9,
      origination_fee_percent: { min: 3, max: 8 },
      representative_example: {
        amount_usd: 15_000,
        apr_percent: 35.99,
        term_months: 60,
        monthly_payment_usd: 541.9,
      },
    })
    // Debt relief has no APR to quote: its offer speaks in copy only.
    expect(relief?.product_type).toBe('debt_relief')
    expect(relief && 'loan_terms' in relief).toBe(false)
  })

  it.each(sampleLeads().map((sample) => [sample.id, sample.lead] as const))(
    'sends terms the marketplace accepts on every loan offer (%s)',
    (_id, lead) => {
      const reply = answerLead(lead, options)
      if (reply.status !== 'approved') return
      for (const offer of reply.offers) {
        if (offer.product_type !== 'installment_loan') continue
        const parsed = partnerLoanTermsSchema.safeParse(offer.loan_terms)
        expect(parsed.success, JSON.stringify(offer.loan_terms)).toBe(true)
        if (!parsed.success) continue
        // Whole: designated, with a consistent example inside its ranges, nothing for the marketplace to drop.
        expect(parsed.data.offer_kind).toBe('pre_qualified')
        expect(parsed.data.representative_example).toBeDefined()
        expect(trimLoanTerms(parsed.data).dropped).toEqual([])
      }
    },
  )
})

describe('answerUnparseable', () => {
  it('answers error with a lead_id for a body that is not JSON', () => {
    const reply = answerUnparseable('{nope', options)
    expect(reply).toMatchObject({ status: 'error', reason: expect.stringContaining('JSON') })
    expect(reply.lead_id).toMatch(/^ref_/)
  })
})
