/** @module The widget's words: the completion line, placeholder filling, and what the packs may not say. */
import { describe, expect, test } from 'vitest'
import { ZIP_PATTERN } from '../../src/contract/common.ts'
import {
  MAX_DRIVER_AGE,
  MAX_VEHICLES,
  MIN_DRIVER_AGE,
  MIN_VEHICLES,
} from '../../src/contract/search-fields.ts'
import { completeLabel, DEFAULT_LABELS, formatLabel } from '../../src/widget/labels.ts'
import { LABELS_ES_US } from '../../src/widget/labels-es-us.ts'
import { DEFAULT_LOAN_LABELS } from '../../src/widget/loan-application/loan-labels.ts'

describe('labels', () => {
  test('the completion line is singular for one offer and plural otherwise', () => {
    expect(completeLabel(DEFAULT_LABELS, 1)).toBe('Search complete: 1 offer.')
    expect(completeLabel(DEFAULT_LABELS, 3)).toBe('Search complete: 3 offers.')
  })

  test('formatLabel fills placeholders and leaves unknown ones visible', () => {
    expect(formatLabel('{answered} of {total}', { answered: 3, total: 5 })).toBe('3 of 5')
    expect(formatLabel('{a} {b}', { a: 1 })).toBe('1 {b}')
  })
})

describe('the label packs', () => {
  const packs = [
    [
      'English',
      { ...DEFAULT_LABELS, ...DEFAULT_LOAN_LABELS },
      /\b(best|top|#1|cheapest|greatest|leading|recommended)\b/i,
    ],
    ['US Spanish', LABELS_ES_US, /\b(mejor(es)?|recomendad[ao]s?|más barat[ao]s?|principal(es)?)\b/i],
  ] as const

  test.each(packs)(
    '%s: no label calls an order partners pay for the best, the top or recommended',
    (_, pack, superlative) => {
      const found = Object.entries(pack).filter(([, text]) => superlative.test(text))
      expect(found).toEqual([])
    },
  )

  // The labels state bounds the form checks (contract/search-fields.ts): a bound that moves moves them.
  test.each([
    ['English', DEFAULT_LABELS],
    ['US Spanish', LABELS_ES_US],
  ] as const)('%s: the form errors state the bounds the form checks', (_, pack) => {
    const numbers = (text: string) => (text.match(/\d+/g) ?? []).map(Number)
    expect(numbers(pack.numberOfVehiclesInvalid)).toEqual([MIN_VEHICLES, MAX_VEHICLES])
    expect(numbers(pack.dateOfBirthAge)).toEqual([MIN_DRIVER_AGE, MAX_DRIVER_AGE])
    // "a 5-digit ZIP code, like 94107": five digits, and an example the pattern takes.
    const [digits, example] = numbers(pack.zipCodeInvalid)
    expect(digits).toBe(5)
    expect(ZIP_PATTERN.test(String(example))).toBe(true)
  })

  test('each pack names its language, which the widget sets as its lang', () => {
    expect(DEFAULT_LABELS.lang).toBe('en')
    expect(LABELS_ES_US.lang).toBe('es')
  })
})
