/**
 * @module The checker's battery of leads. Every one is obviously synthetic, so no real person's data ever
 * reaches a partner: SSNs from the 987-65-4320..4329 range reserved for advertising, `example.com` emails,
 * 555-01xx fictional phone numbers, documentation IP addresses (RFC 5737), "Synthetic" names.
 */
import type { Lead } from '../contract/partner.ts'
import { SAMPLE_FCRA_TEXT, SAMPLE_TCPA_TEXT } from '../marketplace/consent/sandbox-texts.ts'

export { SAMPLE_FCRA_TEXT, SAMPLE_TCPA_TEXT }

export interface SampleLead {
  /** Short kebab-case name used in reports. */
  id: string
  title: string
  lead: Lead
  /**
   * `valid`: a contract-conforming lead, any of the three statuses is acceptable.
   * `invalid`: breaks the contract; the partner must not approve it (`error` naming the field is preferred).
   */
  kind: 'valid' | 'invalid'
  /** For `invalid` leads: the field a good `error` reason names. */
  invalidField?: string
}

/**
 * Only the always-available (Y) fields, plus one credit and one income field (docs/partner-interface.md,
 * The lead).
 */
function base(n: number, state: Lead['personalInformation']['state'], zipcode: string): Lead {
  return {
    personalInformation: {
      firstName: 'Synthetic',
      lastName: `Testlead${n}`,
      email: `synthetic.lead${n}@example.com`,
      city: 'Example City',
      state,
      primaryPhone: `202-555-01${String(n).padStart(2, '0')}`,
      address1: `${100 + n} Example Street`,
      zipcode,
      dateOfBirth: '1985-04-17',
      ssn: `987-65-432${n % 10}`,
    },
    loanInformation: { purpose: 'debt_consolidation' },
    creditInformation: { providedNumericCreditScore: 700 },
    financialInformation: { annualIncome: 55_000 },
    legalInformation: { consentsToFcra: 'true', fcraLanguage: SAMPLE_FCRA_TEXT },
    sessionInformation: {
      ipAddress: `192.0.2.${10 + n}`,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) SyntheticLead/1.0 (offer-widget check-partner)',
    },
  }
}

function complete(): Lead {
  const lead = base(0, 'CA', '94105')
  return {
    ...lead,
    personalInformation: { ...lead.personalInformation, address2: 'Apt 1' },
    loanInformation: { purpose: 'debt_consolidation', loanAmount: 15_000 },
    mortgageInformation: { propertyStatus: 'rent' },
    creditInformation: { providedNumericCreditScore: 650 },
    financialInformation: {
      employmentStatus: 'employed',
      employmentPayFrequency: 'biweekly',
      annualIncome: 62_000,
      monthlyNetIncome: 4_100,
    },
    legalInformation: { ...lead.legalInformation, consentstoTcpa: 'true', tcpaLanguage: SAMPLE_TCPA_TEXT },
  }
}

function withChanges(lead: Lead, changes: Partial<Lead>): Lead {
  return { ...lead, ...changes }
}

// long-function: a data table: the sample leads one after another, each a few lines
export function sampleLeads(): SampleLead[] {
  const minimal = base(1, 'TX', '73301')
  const rating = base(2, 'NY', '10001')
  const score = base(3, 'FL', '33101')
  const annual = base(4, 'IL', '60601')
  const monthly = base(5, 'DC', '20001')
  const tcpaYes = base(6, 'PR', '00901')
  const tcpaNo = base(7, 'VI', '00802')
  const tcpaBroken = base(8, 'WA', '98101')
  const poor = base(9, 'OH', '43004')
  return [
    {
      id: 'complete',
      title: 'every field, both incomes, TCPA consent (CA)',
      lead: complete(),
      kind: 'valid',
    },
    {
      id: 'always-available',
      title: 'only the always-available fields, one credit and one income field (TX)',
      lead: minimal,
      kind: 'valid',
    },
    {
      id: 'credit-rating',
      title: 'providedCreditRating instead of a numeric score (NY)',
      lead: withChanges(rating, { creditInformation: { providedCreditRating: 'excellent' } }),
      kind: 'valid',
    },
    {
      id: 'credit-score',
      title: 'providedNumericCreditScore, no rating (FL)',
      lead: withChanges(score, { creditInformation: { providedNumericCreditScore: 760 } }),
      kind: 'valid',
    },
    {
      id: 'annual-income',
      title: 'annualIncome only (IL)',
      lead: withChanges(annual, {
        loanInformation: { purpose: 'home_improvement', loanAmount: 8_000 },
        financialInformation: { employmentStatus: 'employed', annualIncome: 48_000 },
      }),
      kind: 'valid',
    },
    {
      id: 'monthly-income',
      title: 'monthlyNetIncome only (DC)',
      lead: withChanges(monthly, { financialInformation: { monthlyNetIncome: 3_200 } }),
      kind: 'valid',
    },
    {
      id: 'tcpa-consent',
      title: 'consentstoTcpa "true" with tcpaLanguage (PR)',
      lead: withChanges(tcpaYes, {
        creditInformation: { providedCreditRating: 'fair' },
        legalInformation: {
          ...tcpaYes.legalInformation,
          consentstoTcpa: 'true',
          tcpaLanguage: SAMPLE_TCPA_TEXT,
        },
      }),
      kind: 'valid',
    },
    {
      id: 'tcpa-declined',
      title: 'consentstoTcpa "false", no tcpaLanguage (VI)',
      lead: withChanges(tcpaNo, {
        legalInformation: { ...tcpaNo.legalInformation, consentstoTcpa: 'false' },
      }),
      kind: 'valid',
    },
    {
      id: 'tcpa-without-language',
      title: 'INVALID: consentstoTcpa "true" without tcpaLanguage (WA)',
      lead: withChanges(tcpaBroken, {
        legalInformation: { ...tcpaBroken.legalInformation, consentstoTcpa: 'true' },
      }),
      kind: 'invalid',
      invalidField: 'tcpaLanguage',
    },
    {
      id: 'likely-rejected',
      title: 'score 500, 450 USD a month, 90,000 USD asked (OH): most lenders reject it',
      lead: withChanges(poor, {
        loanInformation: { purpose: 'other', loanAmount: 90_000 },
        creditInformation: { providedNumericCreditScore: 500 },
        financialInformation: { employmentStatus: 'unemployed', monthlyNetIncome: 450 },
      }),
      kind: 'valid',
    },
  ]
}
