/**
 * @module The application's values and the lead: a lead read into the form and written back is the same
 * lead; a prefill with any subset of fields fills exactly those, never the consent boxes; one income kind
 * and one credit field reach the lead.
 */
import { describe, expect, test } from 'vitest'
import { leadInputSchema } from '../../../src/contract/partner.ts'
import { LOAN_CHOICES, STATE_OPTIONS } from '../../../src/widget/loan-application/loan-choices.ts'
import {
  formatSsn,
  isoDateOf,
  type LeadPrefill,
  parseUsd,
  toLead,
  toLoanValues,
} from '../../../src/widget/loan-application/loan-values.ts'
import { CONSENT_TEXTS, LEAD } from './loan-fixtures.ts'

/** The visitor checked both boxes: what the form adds to a prefilled lead. */
const consented = <T extends object>(values: T) => ({ ...values, fcra: true, tcpa: true })

describe('the date of birth as typed', () => {
  test.each([
    ['04/17/1985', '1985-04-17'],
    ['4/7/1985', '1985-04-07'],
    [' 04-17-1985 ', '1985-04-17'],
    ['04.17.1985', '1985-04-17'],
    ['04171985', '1985-04-17'],
    ['1985-04-17', '1985-04-17'],
    // Not a date it can read: left as typed, for the lead's schema to refuse on its field.
    ['17/1985', '17/1985'],
    ['April 17', 'April 17'],
  ])('%j is %j in the lead', (typed, iso) => {
    expect(isoDateOf(typed)).toBe(iso)
  })

  test('a prefilled date shows as the field asks for it (MM/DD/YYYY), and goes back to the lead unchanged', () => {
    const values = toLoanValues(LEAD)
    expect(values.dateOfBirth).toBe(
      `${LEAD.personalInformation.dateOfBirth.slice(5, 7)}/${LEAD.personalInformation.dateOfBirth.slice(8)}/${LEAD.personalInformation.dateOfBirth.slice(0, 4)}`,
    )
    expect(toLead(consented(values), CONSENT_TEXTS).personalInformation.dateOfBirth).toBe(
      LEAD.personalInformation.dateOfBirth,
    )
  })
})

describe('values <-> lead', () => {
  test('a complete lead read into the form and written back is the same lead, and the schema takes it', () => {
    const lead = toLead(consented(toLoanValues(LEAD)), CONSENT_TEXTS)
    expect(lead).toEqual(LEAD)
    expect(leadInputSchema.safeParse(lead).success).toBe(true)
  })

  test.each([
    ['a rating and monthly income', { providedCreditRating: 'fair' }, { monthlyNetIncome: 3200 }],
    ['a score and yearly income', { providedNumericCreditScore: 640 }, { annualIncome: 48000.5 }],
  ])('round trip with %s', (_, creditInformation, income) => {
    const source = {
      ...LEAD,
      creditInformation,
      financialInformation: { employmentStatus: 'retired', employmentPayFrequency: 'monthly', ...income },
    }
    expect(toLead(consented(toLoanValues(source)), CONSENT_TEXTS)).toEqual(source)
  })

  test('exactly one credit field and one income reach the lead, whatever else the form holds', () => {
    const values = {
      ...consented(toLoanValues(LEAD)),
      providedCreditRating: 'good',
      monthlyNetIncome: '4100',
    }
    const byScore = toLead(values, CONSENT_TEXTS)
    expect(byScore.creditInformation).toEqual({ providedNumericCreditScore: 700 })
    expect(byScore.financialInformation).not.toHaveProperty('monthlyNetIncome')
    const byRating = toLead({ ...values, creditKind: 'rating', incomeKind: 'monthly' }, CONSENT_TEXTS)
    expect(byRating.creditInformation).toEqual({ providedCreditRating: 'good' })
    expect(byRating.financialInformation).toEqual({
      employmentStatus: 'employed',
      employmentPayFrequency: 'biweekly',
      monthlyNetIncome: 4100,
    })
  })

  test('legalInformation carries the texts exactly; TCPA unchecked is "false" without its text; no TCPA text, no key', () => {
    const values = { ...toLoanValues(LEAD), fcra: true }
    expect(toLead(values, CONSENT_TEXTS).legalInformation).toEqual({
      consentsToFcra: 'true',
      fcraLanguage: CONSENT_TEXTS.fcra.text,
      consentstoTcpa: 'false',
    })
    const { tcpa: _, ...fcraOnly } = CONSENT_TEXTS
    expect(toLead({ ...values, tcpa: true }, fcraOnly).legalInformation).toEqual({
      consentsToFcra: 'true',
      fcraLanguage: CONSENT_TEXTS.fcra.text,
    })
  })

  test('blank optional answers are left out of the lead', () => {
    const values = { ...consented(toLoanValues(LEAD)), address2: '  ', propertyStatus: '' }
    const lead = toLead(values, CONSENT_TEXTS)
    expect(lead.personalInformation).not.toHaveProperty('address2')
    expect(lead).not.toHaveProperty('mortgageInformation')
  })
})

describe('prefill', () => {
  test('fills only the fields given, and never the consent boxes, even when the prefill says they were given', () => {
    const values = toLoanValues({
      personalInformation: { email: 'a@example.com', state: 'ny' as 'NY' },
      legalInformation: { consentsToFcra: 'true', consentstoTcpa: 'true' },
    })
    expect(values).toMatchObject({
      email: 'a@example.com',
      state: 'NY',
      firstName: '',
      fcra: false,
      tcpa: false,
    })
    expect(values.creditKind).toBe('')
    expect(values.incomeKind).toBe('')
  })

  test('nothing given, nothing filled', () => {
    const values = toLoanValues(undefined)
    expect(Object.values(values).every((v) => v === '' || v === false)).toBe(true)
  })

  test('values the form cannot show are not prefilled (they would be sent unseen)', () => {
    // The page's JSON is not typed code: wrong types are ignored, not shown as "[object Object]".
    const pageJson: unknown = {
      personalInformation: { state: 'ZZ', dateOfBirth: '04/17/1985' },
      loanInformation: { purpose: 'yacht' },
      creditInformation: { providedCreditRating: 'very good' },
      financialInformation: { employmentStatus: 42, annualIncome: {} },
    }
    const values = toLoanValues(pageJson as LeadPrefill)
    expect(values).toMatchObject({
      state: '',
      dateOfBirth: '',
      purpose: '',
      providedCreditRating: '',
      creditKind: '',
      employmentStatus: '',
      annualIncome: '',
      incomeKind: '',
    })
  })

  test('an SSN given as 9 digits is shown ###-##-####', () => {
    expect(toLoanValues({ personalInformation: { ssn: '987654320' } }).ssn).toBe('987-65-4320')
  })
})

test.each([
  ['', ''],
  ['98', '98'],
  ['9876', '987-6'],
  ['98765', '987-65'],
  ['987654', '987-65-4'],
  ['987-65-43201111', '987-65-4320'],
  ['987 65 4320', '987-65-4320'],
  ['abc', ''],
])('formatSsn(%j) = %j', (input, output) => {
  expect(formatSsn(input)).toBe(output)
})

test.each([
  ['', undefined],
  ['15000', 15000],
  ['15,000', 15000],
  ['$15,000.50', 15000.5],
  ['$ 900', 900],
  ['1,5000', Number.NaN],
  ['15k', Number.NaN],
  ['-5', Number.NaN],
  ['1.234', Number.NaN],
])('parseUsd(%j) = %j', (input, output) => {
  expect(parseUsd(input)).toBe(output)
})

test('the enumerated values are snake_case, unique, and the 53 states are offered', () => {
  for (const choices of Object.values(LOAN_CHOICES)) {
    const values = choices.map(([value]) => value)
    expect(new Set(values).size).toBe(values.length)
    for (const value of values) expect(value).toMatch(/^[a-z]+(_[a-z]+)*$/)
  }
  expect(STATE_OPTIONS).toHaveLength(53)
})
