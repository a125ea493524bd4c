/**
 * @module The second-look lead the benches and the e2e suites send to a real server: a fair credit score
 * (the reference rules offer two products), an SSN from the range reserved for advertising and an
 * `example.com` email, so nothing real reaches a partner.
 */
import type { LeadInput } from '../../src/contract/partner.ts'
import { SAMPLE_FCRA_TEXT } from '../../src/partner-kit/sample-leads.ts'
import { distinctDateOfBirth } from './applicants.ts'

/**
 * A fresh copy each call, so a caller may change it: a distinct applicant each time (a date of birth of its
 * own: the second look sends an applicant once per duplicate window), with the sandbox's FCRA text, the one a
 * server in sandbox mode accepts.
 */
export function secondLookLead(): LeadInput {
  return {
    personalInformation: {
      firstName: 'Bench',
      lastName: 'Lead',
      email: 'bench.lead@example.com',
      city: 'Example City',
      state: 'CA',
      primaryPhone: '202-555-0100',
      address1: '1 Example Street',
      zipcode: '94105',
      dateOfBirth: distinctDateOfBirth(),
      ssn: '987-65-4320',
    },
    loanInformation: { purpose: 'debt_consolidation', loanAmount: 12_000 },
    creditInformation: { providedNumericCreditScore: 620 },
    financialInformation: { annualIncome: 52_000 },
    legalInformation: { consentsToFcra: 'true', fcraLanguage: SAMPLE_FCRA_TEXT },
  }
}
