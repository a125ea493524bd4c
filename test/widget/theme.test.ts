/** @module Theme variables a publisher may set: only the known `--ow-*` ones pass. */
import { describe, expect, test } from 'vitest'
import { themeStyle } from '../../src/widget/theme.ts'

describe('themeStyle', () => {
  test('themeStyle passes only known --ow-* variables', () => {
    expect(themeStyle({ '--ow-radius': '4px', ...({ '--evil': 'x', color: 'red' } as object) })).toEqual({
      '--ow-radius': '4px',
    })
    expect(themeStyle(undefined)).toBeUndefined()
  })
})
