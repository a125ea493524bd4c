/**
 * @module The application's steps, phone first: which fields each holds, in order. At most six fields a step,
 * each about 88 px at 360 px (label, 45 px input, gap), so by the CSS the steps are about 440, 710, 800 and
 * 900 px tall, and the consent step 670 px with short texts (920 px with a typical FCRA and TCPA pair, shown
 * whole): step 1 fits one phone screen with its button, none needs more than about one and a half. The loan
 * comes first (what the visitor came for, two answers), identity numbers last, beside the consent that lets
 * lenders use them.
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
