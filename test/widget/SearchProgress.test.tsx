/** @module The progress line's words while a search runs. */
import { describe, expect, test } from 'vitest'
import { DEFAULT_LABELS } from '../../src/widget/labels.ts'
import { progressText } from '../../src/widget/SearchProgress.tsx'

describe('progressText', () => {
  test('progress words count offers on screen and sources still pending, singular and plural', () => {
    expect(progressText(DEFAULT_LABELS, 0, 0, 3)).toBe('Checking 3 sources for offers…')
    expect(progressText(DEFAULT_LABELS, 2, 2, 5)).toBe('2 offers so far, still checking 3 sources')
    expect(progressText(DEFAULT_LABELS, 1, 3, 4)).toBe('1 offer so far, still checking 1 source')
  })
})
