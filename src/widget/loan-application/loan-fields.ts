/**
 * @module How each field of the application is drawn: its control, label, and the standard `autocomplete`
 * token and input mode a phone keyboard and the browser's autofill go by. Lengths are the schema's to judge
 * (validate-application.ts), so only fixed-shape fields (ZIP, score) carry a `maxLength`.
 */
import { type ChoiceField, LOAN_CHOICES, type LoanChoice, STATE_OPTIONS } from './loan-choices.ts'
import type { LoanLabels } from './loan-labels.ts'
import type { LoanField, LoanValues } from './loan-values.ts'

interface Shown {
  /** Drawn only when this holds (the amount of the income kind chosen, the credit field chosen). */
  shownWhen?: (values: LoanValues) => boolean
}

export interface TextSpec extends Shown {
  kind: 'text'
  label: keyof LoanLabels
  type?: 'text' | 'email' | 'tel' | 'date'
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'tel'
  autoComplete: string
  maxLength?: number
  optional?: true
  /** An amount in US dollars: drawn with the `$` before it. */
  money?: true
}

export interface SelectSpec extends Shown {
  kind: 'select'
  label: keyof LoanLabels
  options: ChoiceField | 'state'
  autoComplete?: string
  optional?: true
}

export interface RadioSpec {
  kind: 'radio'
  label: keyof LoanLabels
  options: readonly LoanChoice[]
}

export type FieldSpec = TextSpec | SelectSpec | RadioSpec | { kind: 'ssn' } | { kind: 'consent' }

const select = (
  options: ChoiceField,
  label: keyof LoanLabels,
  extra: Partial<SelectSpec> = {},
): SelectSpec => ({
  kind: 'select',
  label,
  options,
  ...extra,
})

/** Amounts are typed, not spun: a number input's arrows and wheel change a salary by 1. */
const dollars = (label: keyof LoanLabels, shownWhen?: Shown['shownWhen']): TextSpec => ({
  kind: 'text',
  label,
  inputMode: 'decimal',
  autoComplete: 'off',
  money: true,
  ...(shownWhen && { shownWhen }),
})

export const LOAN_FIELDS: Record<LoanField, FieldSpec> = {
  purpose: select('purpose', 'loanPurpose'),
  loanAmount: { ...dollars('loanAmount'), autoComplete: 'transaction-amount' },
  firstName: { kind: 'text', label: 'loanFirstName', autoComplete: 'given-name' },
  lastName: { kind: 'text', label: 'loanLastName', autoComplete: 'family-name' },
  email: { kind: 'text', label: 'loanEmail', type: 'email', inputMode: 'email', autoComplete: 'email' },
  primaryPhone: {
    kind: 'text',
    label: 'loanPhone',
    type: 'tel',
    inputMode: 'tel',
    autoComplete: 'tel-national',
  },
  // Typed as MM/DD/YYYY (loan-values.ts isoDateOf says why not a date control).
  dateOfBirth: {
    kind: 'text',
    label: 'loanDateOfBirth',
    inputMode: 'numeric',
    autoComplete: 'bday',
    maxLength: 10,
  },
  address1: { kind: 'text', label: 'loanAddress1', autoComplete: 'address-line1' },
  address2: { kind: 'text', label: 'loanAddress2', autoComplete: 'address-line2', optional: true },
  city: { kind: 'text', label: 'loanCity', autoComplete: 'address-level2' },
  state: { kind: 'select', label: 'loanState', options: 'state', autoComplete: 'address-level1' },
  zipcode: {
    kind: 'text',
    label: 'loanZipcode',
    inputMode: 'numeric',
    autoComplete: 'postal-code',
    maxLength: 10,
  },
  propertyStatus: select('propertyStatus', 'loanPropertyStatus', { optional: true }),
  employmentStatus: select('employmentStatus', 'loanEmploymentStatus'),
  employmentPayFrequency: select('employmentPayFrequency', 'loanPayFrequency'),
  incomeKind: {
    kind: 'radio',
    label: 'loanIncomeKind',
    options: [
      ['annual', 'loanIncomeAnnual'],
      ['monthly', 'loanIncomeMonthly'],
    ],
  },
  annualIncome: dollars('loanAnnualIncome', (v) => v.incomeKind === 'annual'),
  monthlyNetIncome: dollars('loanMonthlyNetIncome', (v) => v.incomeKind === 'monthly'),
  creditKind: {
    kind: 'radio',
    label: 'loanCreditKind',
    options: [
      ['score', 'loanCreditKnowScore'],
      ['rating', 'loanCreditPickRating'],
    ],
  },
  providedNumericCreditScore: {
    kind: 'text',
    label: 'loanCreditScore',
    inputMode: 'numeric',
    autoComplete: 'off',
    maxLength: 3,
    shownWhen: (v) => v.creditKind === 'score',
  },
  providedCreditRating: select('providedCreditRating', 'loanCreditRating', {
    shownWhen: (v) => v.creditKind === 'rating',
  }),
  ssn: { kind: 'ssn' },
  // Both boxes are drawn together, beside the texts they consent to (ConsentBoxes.tsx).
  fcra: { kind: 'consent' },
  tcpa: { kind: 'consent' },
}

const STATE_PAIRS = STATE_OPTIONS.map(({ value, name }) => [value, name] as const)

/** The options of a select, each `[value, text]`. */
export function optionsOf(spec: SelectSpec, labels: LoanLabels): ReadonlyArray<readonly [string, string]> {
  if (spec.options === 'state') return STATE_PAIRS
  return LOAN_CHOICES[spec.options].map(([value, key]) => [value, labels[key]] as const)
}
