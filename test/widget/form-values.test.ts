/** @module The search form's values: round trip with the page data, validation, and BFF field paths. */
import { describe, expect, test } from 'vitest'
import { ageOn } from '../../src/contract/search-fields.ts'
import { formFieldOf, fromFormValues, toFormValues, validateForm } from '../../src/widget/form-values.ts'
import { DEFAULT_LABELS } from '../../src/widget/labels.ts'
import { FORM_FIELDS } from '../../src/widget/search-input.ts'

describe('form values', () => {
  test('form values round-trip and merge over the page data', () => {
    const given = { zipCode: '10001', isHomeOwner: true, clientTags: { subId: ['x'] } }
    const values = {
      ...toFormValues(given),
      zipCode: ' 94107 ',
      numberOfVehicles: '3',
      isMilitary: 'no' as const,
    }
    expect(fromFormValues(values, given)).toEqual({
      zipCode: '94107',
      isHomeOwner: true,
      isMilitary: false,
      numberOfVehicles: 3,
      clientTags: { subId: ['x'] },
    })
  })

  test('validation: ZIP required and 5 digits; date of birth real and past; vehicles 1 to 20', () => {
    const empty = toFormValues({})
    const today = new Date('2026-03-01T00:00:00Z')
    expect(validateForm(empty, FORM_FIELDS, DEFAULT_LABELS, today)).toEqual({
      zipCode: DEFAULT_LABELS.zipCodeRequired,
    })
    expect(validateForm({ ...empty, zipCode: '9410' }, ['zipCode'], DEFAULT_LABELS).zipCode).toBe(
      DEFAULT_LABELS.zipCodeInvalid,
    )
    expect(validateForm({ ...empty, zipCode: '94107-1234' }, ['zipCode'], DEFAULT_LABELS)).toEqual({})
    for (const dob of ['1990-02-30', '2027-01-01', '1800-01-01']) {
      expect(
        validateForm({ ...empty, dateOfBirth: dob }, ['dateOfBirth'], DEFAULT_LABELS, today).dateOfBirth,
      ).toBe(DEFAULT_LABELS.dateOfBirthInvalid)
    }
    expect(validateForm({ ...empty, numberOfVehicles: '21' }, ['numberOfVehicles'], DEFAULT_LABELS)).toEqual({
      numberOfVehicles: DEFAULT_LABELS.numberOfVehiclesInvalid,
    })
  })

  test.each([
    // [date of birth, today, refused?]: ages 16 to 100 inclusive, by the visitor's calendar.
    ['2015-03-01', '2026-03-01', true], // 11 years old
    ['2010-03-02', '2026-03-01', true], // 15, turns 16 tomorrow
    ['2010-03-01', '2026-03-01', false], // 16 today
    ['1926-03-01', '2026-03-01', false], // 100 today
    ['1925-03-01', '2026-03-01', true], // 101
    ['1925-03-02', '2026-03-01', false], // 100, 101 tomorrow
  ])('date of birth %s on %s: refused %s', (dob, today, refused) => {
    const errors = validateForm(
      { ...toFormValues({}), zipCode: '94107', dateOfBirth: dob },
      ['zipCode', 'dateOfBirth'],
      DEFAULT_LABELS,
      new Date(`${today}T12:00:00`),
    )
    expect(errors.dateOfBirth).toBe(refused ? DEFAULT_LABELS.dateOfBirthAge : undefined)
  })

  test('ageOn counts whole years, a birthday later this year not yet', () => {
    expect(ageOn('2000-12-31', '2026-12-30')).toBe(25)
    expect(ageOn('2000-12-31', '2026-12-31')).toBe(26)
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25)
  })

  test.each([
    ['00000', DEFAULT_LABELS.zipCodeZeros],
    ['00000-0000', DEFAULT_LABELS.zipCodeZeros],
    // The sandbox's scenario ZIPs stay usable.
    ['00001', undefined],
    ['00010', undefined],
    ['94107', undefined],
  ])('ZIP %s: %s', (zip, message) => {
    expect(validateForm({ ...toFormValues({}), zipCode: zip }, ['zipCode'], DEFAULT_LABELS).zipCode).toBe(
      message,
    )
  })

  test('BFF field paths map onto form fields, whichever ZIP spelling', () => {
    expect(formFieldOf('personalInformation.zipCode')).toBe('zipCode')
    expect(formFieldOf('personalInformation.zipcode')).toBe('zipCode')
    expect(formFieldOf('autoInsuranceInformation.policyHolderInformation.isHomeOwner')).toBe('isHomeOwner')
    expect(formFieldOf('productTypes')).toBeUndefined()
  })
})
