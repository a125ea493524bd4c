/** @module The widget's words: the completion line, placeholder filling, and what the packs may not say. */
import { describe, expect, test } from 'vitest'
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

  test('each pack names its language, which the widget sets as its lang', () => {
    expect(DEFAULT_LABELS.lang).toBe('en')
    expect(LABELS_ES_US.lang).toBe('es')
  })
})
