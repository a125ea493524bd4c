/**
 * @module The application's steps, phone first: which fields each holds, in order. At most six controls a
 * step, so a step fits about one and a half 360 px screens (a field is ~90 px: label, 44 px input, gap).
 * The loan comes first (what the visitor came for, two answers), identity numbers last, beside the consent
 * that lets lenders use them.
 */
import type { LoanLabels } from './loan-labels.ts'
import type { LoanField } from './loan-values.ts'

export interface LoanStep {
  id: 'loan' | 'about' | 'address' | 'finances' | 'consent'
  /** The key of the step's heading. */
  title: keyof LoanLabels
  fields: readonly LoanField[]
}

export const LOAN_STEPS: readonly LoanStep[] = [
  { id: 'loan', title: 'loanStepLoan', fields: ['purpose', 'loanAmount'] },
  {
    id: 'about',
    title: 'loanStepAbout',
    fields: ['firstName', 'lastName', 'email', 'primaryPhone', 'dateOfBirth'],
  },
  {
    id: 'address',
    title: 'loanStepAddress',
    fields: ['address1', 'address2', 'city', 'state', 'zipcode', 'propertyStatus'],
  },
  {
    id: 'finances',
    title: 'loanStepFinances',
    fields: [
      'employmentStatus',
      'employmentPayFrequency',
      'incomeKind',
      'annualIncome',
      'monthlyNetIncome',
      'creditKind',
      'providedNumericCreditScore',
      'providedCreditRating',
    ],
  },
  { id: 'consent', title: 'loanStepConsent', fields: ['ssn', 'fcra', 'tcpa'] },
]

export const ALL_LOAN_FIELDS: readonly LoanField[] = LOAN_STEPS.flatMap((step) => step.fields)

/** The index of the first step holding one of `fields`, or -1. */
export function firstStepWith(fields: readonly LoanField[]): number {
  return LOAN_STEPS.findIndex((step) => step.fields.some((field) => fields.includes(field)))
}
