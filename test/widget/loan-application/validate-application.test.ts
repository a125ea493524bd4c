/**
 * @module The application's rules are the BFF's schema: for every value in the tables below, the form
 * accepts exactly what `leadInputSchema` accepts for that field (judged here on its own, on the lead the
 * values make), so a form rule that drifted from the schema, or an issue the form failed to place, fails a
 * test. The only additions (FORM_RULES) are tested as such.
 */
import { describe, expect, test } from 'vitest'
import { leadInputSchema } from '../../../src/contract/partner.ts'
import { DEFAULT_LOAN_LABELS as L } from '../../../src/widget/loan-application/loan-labels.ts'
import { ALL_LOAN_FIELDS, LOAN_STEPS } from '../../../src/widget/loan-application/loan-steps.ts'
import {
  type LoanField,
  type LoanValues,
  toLead,
  toLoanValues,
} from '../../../src/widget/loan-application/loan-values.ts'
import {
  fieldOfPath,
  validateApplication,
} from '../../../src/widget/loan-application/validate-application.ts'
import { CONSENT_TEXTS, LEAD } from './loan-fixtures.ts'

const TODAY = new Date(2026, 10, 27)
const valid = (): LoanValues => ({ ...toLoanValues(LEAD), fcra: true, tcpa: true })
const check = (values: LoanValues, fields: readonly LoanField[] = ALL_LOAN_FIELDS) =>
  validateApplication(values, fields, L, { texts: CONSENT_TEXTS, today: TODAY })

/** Does the schema itself, alone, find a problem at the lead path that `field` holds? */
function schemaRefuses(values: LoanValues, field: LoanField): boolean {
  const parsed = leadInputSchema.safeParse(toLead(values, CONSENT_TEXTS))
  return (parsed.error?.issues ?? []).some((issue) => fieldOfPath(issue.path, values) === field)
}

test('a complete application is the lead, and the schema takes it', () => {
  const result = check(valid())
  expect(result.errors).toEqual({})
  expect(result.lead).toEqual(LEAD)
  expect(leadInputSchema.safeParse(result.lead).success).toBe(true)
})

// Values the schema refuses and takes, field by field (its regexes, bounds and lengths).
const CASES: ReadonlyArray<readonly [LoanField, string]> = [
  ['email', 'synthetic@example'],
  ['email', 'name example.com'],
  ['email', 'a.b+c@example.co.uk'],
  ['primaryPhone', '555-0147'],
  ['primaryPhone', '202-555-01477'],
  ['primaryPhone', '(202) 555-0147'],
  ['primaryPhone', '+1 202 555 0147'],
  ['primaryPhone', '2025550147'],
  ['zipcode', '9410'],
  ['zipcode', '94107-12'],
  ['zipcode', '94107-1234'],
  ['ssn', '987-65-432'],
  ['ssn', '987654320'],
  ['dateOfBirth', '1985-02-30'],
  ['dateOfBirth', '1984-02-29'],
  ['firstName', 'x'.repeat(101)],
  ['firstName', 'x'.repeat(100)],
  ['address1', 'x'.repeat(201)],
  ['address2', 'x'.repeat(201)],
  ['city', ''],
  ['state', ''],
  ['state', 'XX'],
  ['purpose', ''],
  ['loanAmount', '0'],
  ['loanAmount', '0.01'],
  ['loanAmount', 'lots'],
  ['annualIncome', '0'],
  ['annualIncome', '-1'],
  ['annualIncome', ''],
  ['providedNumericCreditScore', '299'],
  ['providedNumericCreditScore', '300'],
  ['providedNumericCreditScore', '850'],
  ['providedNumericCreditScore', '851'],
  ['providedNumericCreditScore', '7o0'],
]

describe('the form accepts exactly what the schema accepts', () => {
  test.each(CASES)('%s = %j', (field, value) => {
    const values = { ...valid(), [field]: value }
    const refused = schemaRefuses(values, field)
    const error = check(values).errors[field]
    expect(error !== undefined).toBe(refused)
  })

  test("each refusal is the field's visitor sentence, not the schema's words for developers", () => {
    expect(check({ ...valid(), email: 'synthetic@example' }).errors.email).toBe(L.loanEmailInvalid)
    expect(check({ ...valid(), email: '' }).errors.email).toBe(L.loanEmailRequired)
    expect(check({ ...valid(), zipcode: '9410' }).errors.zipcode).toBe(L.loanZipcodeInvalid)
    expect(check({ ...valid(), providedNumericCreditScore: '851' }).errors.providedNumericCreditScore).toBe(
      L.loanCreditScoreInvalid,
    )
    expect(check({ ...valid(), firstName: 'x'.repeat(101) }).errors.firstName).toBe(
      'Use at most 100 characters.',
    )
  })
})

describe('choices the schema requires one of', () => {
  test('no credit kind chosen: the error is on the choice (the schema\'s "exactly one")', () => {
    const { errors } = check({ ...valid(), creditKind: '' })
    expect(errors).toEqual({ creditKind: L.loanCreditKindRequired })
  })

  test('no income kind chosen: the error is on the choice (the schema\'s "at least one")', () => {
    expect(check({ ...valid(), incomeKind: '' }).errors).toEqual({ incomeKind: L.loanIncomeKindRequired })
  })

  test('a kind chosen but left blank: the error is on its field', () => {
    const values = { ...valid(), creditKind: 'rating' as const, providedCreditRating: '' }
    expect(check(values).errors).toEqual({ providedCreditRating: L.loanCreditRatingRequired })
  })
})

describe('consent', () => {
  test("FCRA unchecked is the schema's refusal, on the box, saying why", () => {
    const values = { ...valid(), fcra: false }
    expect(schemaRefuses(values, 'fcra')).toBe(true)
    const result = check(values)
    expect(result.errors).toEqual({ fcra: L.loanFcraRequired })
    expect(result.lead).toBeUndefined()
  })

  test('TCPA is optional', () => {
    expect(check({ ...valid(), tcpa: false }).errors).toEqual({})
  })
})

describe('what the schema cannot know (the only additions)', () => {
  test.each([
    ['loanAmount', ''],
    ['employmentStatus', ''],
    ['employmentPayFrequency', ''],
  ] as const)(
    '%s is asked of a visitor applying here though a waterfall lead may lack it',
    (field, value) => {
      const values = { ...valid(), [field]: value }
      expect(schemaRefuses(values, field)).toBe(false)
      expect(check(values).errors[field]).toBeDefined()
    },
  )

  test.each([
    ['2026-11-27', L.loanDateOfBirthInvalid],
    ['2030-01-01', L.loanDateOfBirthInvalid],
    ['1899-12-31', L.loanDateOfBirthInvalid],
    ['2008-11-28', L.loanDateOfBirthAge],
    ['2008-11-27', undefined],
  ])('date of birth %s: %s', (dateOfBirth, message) => {
    expect(check({ ...valid(), dateOfBirth }).errors.dateOfBirth).toBe(message)
  })
})

test('a step is judged on its own fields only', () => {
  const values = { ...toLoanValues(undefined), purpose: 'auto', loanAmount: '5000' }
  expect(check(values, LOAN_STEPS[0]?.fields).errors).toEqual({})
  expect(Object.keys(check(values, LOAN_STEPS[1]?.fields).errors).sort()).toEqual(
    ['dateOfBirth', 'email', 'firstName', 'lastName', 'primaryPhone'].sort(),
  )
})
