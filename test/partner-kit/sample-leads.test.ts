/**
 * @module The checker's battery: synthetic, contract-conforming (but one), and covering docs/partner-interface.md's variants.
 */
import { describe, expect, it } from 'vitest'
import { toFieldIssues } from '../../src/contract/common.ts'
import { leadSchema } from '../../src/contract/partner.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'

const leads = sampleLeads()

describe('sampleLeads', () => {
  it('every valid lead passes the contract', () => {
    for (const sample of leads.filter((s) => s.kind === 'valid')) {
      const parsed = leadSchema.safeParse(sample.lead)
      expect(parsed.success ? [] : toFieldIssues(parsed.error), sample.id).toEqual([])
    }
  })

  it('the invalid lead breaks exactly one rule: "tcpaLanguage: present when consentstoTcpa is true"', () => {
    const invalid = leads.filter((s) => s.kind === 'invalid')
    expect(invalid.map((s) => s.id)).toEqual(['tcpa-without-language'])
    const parsed = leadSchema.safeParse(invalid[0]?.lead)
    expect(parsed.success).toBe(false)
    if (!parsed.success)
      expect(toFieldIssues(parsed.error).map((i) => i.field)).toEqual(['legalInformation.tcpaLanguage'])
  })

  it("never carries a real person's data: reserved SSNs, example.com emails, 555-01xx phones, RFC 5737 IPs", () => {
    for (const { lead, id } of leads) {
      expect(lead.personalInformation.ssn, id).toMatch(/^987-65-432\d$/)
      expect(lead.personalInformation.email, id).toMatch(/@example\.com$/)
      expect(lead.personalInformation.primaryPhone, id).toMatch(/555-01\d\d$/)
      expect(lead.sessionInformation.ipAddress, id).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\./)
    }
  })

  it('covers each conditional variant (docs/partner-interface.md: exactly one credit field; one of the incomes)', () => {
    type SampleLead = (typeof leads)[number]['lead']
    const variants: Record<string, (l: SampleLead) => boolean> = {
      'a credit rating': (l) => l.creditInformation.providedCreditRating !== undefined,
      'a numeric credit score': (l) => l.creditInformation.providedNumericCreditScore !== undefined,
      'an annual income only': (l) =>
        l.financialInformation.annualIncome !== undefined &&
        l.financialInformation.monthlyNetIncome === undefined,
      'a monthly net income only': (l) =>
        l.financialInformation.monthlyNetIncome !== undefined &&
        l.financialInformation.annualIncome === undefined,
      'TCPA consent with its language': (l) =>
        l.legalInformation.consentstoTcpa === 'true' && !!l.legalInformation.tcpaLanguage,
      'no TCPA consent': (l) => l.legalInformation.consentstoTcpa === 'false',
    }
    for (const [variant, has] of Object.entries(variants)) {
      expect(
        leads.filter((s) => has(s.lead)).map((s) => s.id),
        `a sample lead with ${variant}`,
      ).not.toEqual([])
    }
  })

  it('has a complete lead and one with only the always-available fields', () => {
    const complete = leads.find((s) => s.id === 'complete')?.lead
    expect(complete?.personalInformation.address2).toBeDefined()
    expect(complete?.loanInformation.loanAmount).toBeDefined()
    expect(complete?.mortgageInformation?.propertyStatus).toBeDefined()
    expect(complete?.financialInformation.employmentStatus).toBeDefined()
    expect(complete?.financialInformation.employmentPayFrequency).toBeDefined()
    const minimal = leads.find((s) => s.id === 'always-available')?.lead
    expect(minimal?.personalInformation.address2).toBeUndefined()
    expect(minimal?.loanInformation.loanAmount).toBeUndefined()
    expect(minimal?.mortgageInformation).toBeUndefined()
    expect(minimal?.legalInformation.consentstoTcpa).toBeUndefined()
    expect(Object.keys(minimal?.financialInformation ?? {})).toHaveLength(1)
    expect(Object.keys(minimal?.creditInformation ?? {})).toHaveLength(1)
  })

  it('comes from several states, DC, PR and VI included (docs/partner-interface.md: "50 U.S. states plus DC, PR and VI")', () => {
    const states = new Set(leads.map((s) => s.lead.personalInformation.state))
    for (const state of ['DC', 'PR', 'VI']) expect(states).toContain(state)
    expect(states.size).toBeGreaterThanOrEqual(8)
  })

  it('has distinct ids', () => {
    expect(new Set(leads.map((s) => s.id)).size).toBe(leads.length)
  })
})
