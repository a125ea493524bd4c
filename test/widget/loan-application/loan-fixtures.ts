/**
 * @module Shared fixtures of the loan application's tests: the operator's consent texts as the BFF serves
 * them, and a complete, valid lead (synthetic: an advertising SSN, example.com, a 555-01xx phone).
 */
import type { ConsentTexts } from '../../../src/contract/consent.ts'
import type { LeadInput } from '../../../src/contract/partner.ts'

export const CONSENT_TEXTS: ConsentTexts = {
  version: '2026-11',
  fcra: {
    id: 'fcra-1',
    text: 'By checking this box I authorize Example Co. and its lending partners to obtain my consumer credit report.\nThis is a "soft" inquiry for prequalification.',
  },
  tcpa: {
    id: 'tcpa-1',
    text: 'By checking this box I agree to be contacted by Example Co. and its partners at the number I gave, including by autodialed calls and texts. Consent is not a condition of any purchase.',
  },
}

export const LEAD: LeadInput = {
  personalInformation: {
    firstName: 'Synthetic',
    lastName: 'Applicant',
    email: 'synthetic.applicant@example.com',
    city: 'San Francisco',
    state: 'CA',
    primaryPhone: '202-555-0147',
    address1: '100 Example Street',
    address2: 'Apt 4',
    zipcode: '94107',
    dateOfBirth: '1985-04-17',
    ssn: '987-65-4320',
  },
  loanInformation: { purpose: 'debt_consolidation', loanAmount: 15000 },
  mortgageInformation: { propertyStatus: 'rent' },
  creditInformation: { providedNumericCreditScore: 700 },
  financialInformation: {
    employmentStatus: 'employed',
    employmentPayFrequency: 'biweekly',
    annualIncome: 62000,
  },
  legalInformation: {
    consentsToFcra: 'true',
    fcraLanguage: CONSENT_TEXTS.fcra.text,
    consentstoTcpa: 'true',
    tcpaLanguage: CONSENT_TEXTS.tcpa?.text ?? '',
  },
}
