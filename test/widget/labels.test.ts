/** @module The widget's words: the completion line and placeholder filling. */
import { describe, expect, test } from 'vitest'
import { completeLabel, DEFAULT_LABELS, formatLabel } from '../../src/widget/labels.ts'

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
