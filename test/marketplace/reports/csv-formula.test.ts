/**
 * @module The one CSV formula predicate, through `csvCell`, on the starts the old check let through (a cell
 * opened by LF, a fullwidth sign, or an invisible or bidi character before the sign).
 */
import { describe, expect, it } from 'vitest'
import { isFormulaLike } from '../../../src/marketplace/reports/csv-formula.ts'
import { csvCell } from '../../../src/marketplace/reports/report-csv.ts'

describe('CSV formula cells', () => {
  it.each([
    '=1+1',
    '+1',
    '-1+1',
    '@SUM(A1)',
    '\t=1+1',
    '\r=1+1',
    '\n=1+1',
    '\nanything',
    '\uff1dHYPERLINK("x")',
    '\uff0b1',
    '\uff0d1',
    '\uff20SUM(A1)',
    '\ufe66HYPERLINK("x")',
    '\ufe621',
    '\ufe631',
    '\ufe6bSUM(A1)',
    '\u200b\ufe661+1',
    '\u200b=1+1',
    '\u200e=1+1',
    '\u202e=1+1',
    '\u2066@SUM(A1)',
    '\ufeff=1+1',
    ' =1+1',
    '\u00a0\u3000=1+1',
  ])('neutralises %j', (text) => {
    expect(isFormulaLike(text)).toBe(true)
    expect(csvCell(text)).toMatch(/^"?'/)
  })

  it.each(['plain', 'a=b', 'x-1', 'user@example.com', '', '\u200bplain', '１２３'])(
    'leaves %j as it is',
    (text) => {
      expect(isFormulaLike(text)).toBe(false)
      expect(csvCell(text).startsWith("'")).toBe(false)
    },
  )

  it('leaves numbers alone: only text is partner text', () => {
    expect(csvCell(-3)).toBe('-3')
  })
})
