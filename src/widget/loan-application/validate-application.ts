/**
 * @module The application's one set of rules: the lead its values make is judged by `leadInputSchema`, the
 * schema the BFF applies, and each issue is put on the field that holds it with a sentence for visitors.
 * Added here only what the schema cannot know (see formRules). The BFF's own field errors are put on
 * fields by the same paths (server-errors.ts).
 */
import { MIN_APPLICANT_AGE } from '../../contract/applicant-bounds.ts'
import type { ConsentTexts } from '../../contract/consent.ts'
import { type LeadInput, leadInputSchema } from '../../contract/lead.ts'
import { ageOn, EARLIEST_DATE_OF_BIRTH, localIsoDate } from '../../contract/search-fields.ts'
import { formatLabel } from '../labels.ts'
import type { LoanLabels } from './loan-labels.ts'
import {
  type CreditKind,
  type IncomeKind,
  isoDateOf,
  type LoanField,
  type LoanValues,
  toLead,
} from './loan-values.ts'

export type LoanErrors = Partial<Record<LoanField, string>>

/** Per field: the sentence when it is blank, and when it holds something the lead does not take. */
const MESSAGES: Record<LoanField, readonly [blank: keyof LoanLabels, wrong: keyof LoanLabels]> = {
  purpose: ['loanPurposeRequired', 'loanPurposeRequired'],
  loanAmount: ['loanAmountRequired', 'loanAmountInvalid'],
  firstName: ['loanFirstNameRequired', 'loanInvalid'],
  lastName: ['loanLastNameRequired', 'loanInvalid'],
  email: ['loanEmailRequired', 'loanEmailInvalid'],
  primaryPhone: ['loanPhoneRequired', 'loanPhoneInvalid'],
  dateOfBirth: ['loanDateOfBirthRequired', 'loanDateOfBirthInvalid'],
  address1: ['loanAddress1Required', 'loanInvalid'],
  address2: ['loanInvalid', 'loanInvalid'],
  city: ['loanCityRequired', 'loanInvalid'],
  state: ['loanStateRequired', 'loanStateRequired'],
  zipcode: ['loanZipcodeRequired', 'loanZipcodeInvalid'],
  propertyStatus: ['loanInvalid', 'loanInvalid'],
  employmentStatus: ['loanEmploymentStatusRequired', 'loanEmploymentStatusRequired'],
  employmentPayFrequency: ['loanPayFrequencyRequired', 'loanPayFrequencyRequired'],
  incomeKind: ['loanIncomeKindRequired', 'loanIncomeKindRequired'],
  annualIncome: ['loanAnnualIncomeRequired', 'loanIncomeInvalid'],
  monthlyNetIncome: ['loanMonthlyNetIncomeRequired', 'loanIncomeInvalid'],
  creditKind: ['loanCreditKindRequired', 'loanCreditKindRequired'],
  providedNumericCreditScore: ['loanCreditScoreRequired', 'loanCreditScoreInvalid'],
  providedCreditRating: ['loanCreditRatingRequired', 'loanCreditRatingRequired'],
  ssn: ['loanSsnRequired', 'loanSsnInvalid'],
  fcra: ['loanFcraRequired', 'loanFcraRequired'],
  tcpa: ['loanInvalid', 'loanInvalid'],
}

const LEAF_FIELDS: ReadonlySet<string> = new Set(Object.keys(MESSAGES))

/** The field the chosen credit kind, or income kind, puts in the lead; the choice itself when none is. */
const CREDIT_FIELD: Record<CreditKind, LoanField> = {
  '': 'creditKind',
  score: 'providedNumericCreditScore',
  rating: 'providedCreditRating',
}
const INCOME_FIELD: Record<IncomeKind, LoanField> = {
  '': 'incomeKind',
  annual: 'annualIncome',
  monthly: 'monthlyNetIncome',
}

/**
 * The field holding a lead path (`personalInformation.email`, or zod's `['creditInformation', ...]`).
 * Credit and income go to the field the visitor chose, or to the choice when none is chosen (the schema's
 * "exactly one" and "at least one" rules); consent fields to their box. Undefined: no field holds it.
 */
export function fieldOfPath(
  path: readonly PropertyKey[] | string,
  values: LoanValues,
): LoanField | undefined {
  const [group, leaf = ''] = (typeof path === 'string' ? path.split('.') : path).map(String)
  switch (group) {
    case 'personalInformation':
    case 'loanInformation':
    case 'mortgageInformation':
      return LEAF_FIELDS.has(leaf) && leaf !== 'fcra' && leaf !== 'tcpa' ? (leaf as LoanField) : undefined
    case 'creditInformation':
      return CREDIT_FIELD[values.creditKind]
    case 'financialInformation':
      if (leaf === 'employmentStatus' || leaf === 'employmentPayFrequency') return leaf
      return INCOME_FIELD[values.incomeKind]
    case 'legalInformation':
      return /tcpa/i.test(leaf) ? 'tcpa' : 'fcra'
    default:
      return undefined
  }
}

/** The sentence for a field holding something the lead does not take (the BFF's refusals use it too). */
export function wrongSentence(field: LoanField, labels: LoanLabels): string {
  return labels[MESSAGES[field][1]]
}

/** The visitor's sentence for a field the lead does not take: blank, too long, or wrong. */
function fieldMessage(field: LoanField, values: LoanValues, labels: LoanLabels, tooLongAt?: number): string {
  if (tooLongAt !== undefined) return formatLabel(labels.loanTooLong, { max: tooLongAt })
  const value = values[field]
  const [blank, wrong] = MESSAGES[field]
  return labels[value === '' || value === false ? blank : wrong]
}

/**
 * What the schema cannot know, each with why. The lead spec marks the loan amount, employment status and
 * pay frequency "not always" present because a waterfall lead may lack them; a visitor applying here can
 * answer them and lenders price on them, so the form asks for them. A real date of birth (the schema's
 * rule) must also be in the past, not before 1900 (a typed `0199`), and 18 years ago at least (the BFF's
 * own rule, contract/applicant-bounds.ts).
 */
function formRules(values: LoanValues, labels: LoanLabels, today: Date): LoanErrors {
  const errors: LoanErrors = {}
  if (values.loanAmount.trim() === '') errors.loanAmount = labels.loanAmountRequired
  if (values.employmentStatus === '') errors.employmentStatus = labels.loanEmploymentStatusRequired
  if (values.employmentPayFrequency === '') errors.employmentPayFrequency = labels.loanPayFrequencyRequired
  // The schema judges the form (a real YYYY-MM-DD date); these only a date it reads.
  const dob = isoDateOf(values.dateOfBirth)
  const iso = localIsoDate(today)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dob)) return errors
  if (dob >= iso || dob < EARLIEST_DATE_OF_BIRTH) errors.dateOfBirth = labels.loanDateOfBirthInvalid
  else if (ageOn(dob, iso) < MIN_APPLICANT_AGE) errors.dateOfBirth = labels.loanDateOfBirthAge
  return errors
}

export interface ApplicationCheck {
  /** The fields of `fields` in error, each with its sentence. */
  errors: LoanErrors
  /** The lead, when the whole application is valid (every field, not only `fields`). */
  lead: LeadInput | undefined
}

/** Judges the application; reports errors only on `fields` (the step being left, or all on submit). */
export function validateApplication(
  values: LoanValues,
  fields: readonly LoanField[],
  labels: LoanLabels,
  options: { texts?: ConsentTexts | undefined; today?: Date } = {},
): ApplicationCheck {
  const parsed = leadInputSchema.safeParse(toLead(values, options.texts))
  const all: LoanErrors = {}
  for (const issue of parsed.error?.issues ?? []) {
    const field = fieldOfPath(issue.path, values)
    if (field === undefined || all[field] !== undefined) continue
    const tooLong = issue.code === 'too_big' && issue.origin === 'string' ? Number(issue.maximum) : undefined
    all[field] = fieldMessage(field, values, labels, tooLong)
  }
  const extra = formRules(values, labels, options.today ?? new Date())
  for (const [field, message] of Object.entries(extra) as [LoanField, string][]) all[field] ??= message
  const errors: LoanErrors = {}
  for (const field of fields) if (all[field] !== undefined) errors[field] = all[field]
  const valid = parsed.success && Object.keys(all).length === 0
  return { errors, lead: valid ? parsed.data : undefined }
}
