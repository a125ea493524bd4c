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

  // Invisible code points a spreadsheet may skip, each named: default-ignorable ones (combining grapheme
  // joiner, Hangul fillers, Khmer inherent vowels, tags, variation selectors), format characters, and the
  // blanks no property names (braille blank, musical null notehead).
  const INVISIBLE: Array<[string, number]> = [
    ['combining grapheme joiner', 0x034f],
    ['braille pattern blank', 0x2800],
    ['Hangul filler', 0x3164],
    ['Hangul choseong filler', 0x115f],
    ['Hangul jungseong filler', 0x1160],
    ['halfwidth Hangul filler', 0xffa0],
    ['Mongolian vowel separator', 0x180e],
    ['word joiner', 0x2060],
    ['function application', 0x2061],
    ['invisible times', 0x2062],
    ['invisible separator', 0x2063],
    ['invisible plus', 0x2064],
    ['inhibit symmetric swapping', 0x206a],
    ['nominal digit shapes', 0x206f],
    ['byte order mark', 0xfeff],
    ['soft hyphen', 0x00ad],
    ['Arabic letter mark', 0x061c],
    ['Khmer vowel inherent aq', 0x17b4],
    ['Khmer vowel inherent aa', 0x17b5],
    ['musical symbol null notehead', 0x1d159],
    ['musical symbol begin beam', 0x1d173],
    ['tag (reserved)', 0xe0000],
    ['language tag', 0xe0001],
    ['tag space', 0xe0020],
    ['cancel tag', 0xe007f],
    ['variation selector-1', 0xfe00],
    ['variation selector-16', 0xfe0f],
    ['variation selector-17', 0xe0100],
    ['variation selector-256', 0xe01ef],
    ['interlinear annotation anchor', 0xfff9],
    ['next line', 0x0085],
    ['ogham space mark', 0x1680],
  ]
  const rows = INVISIBLE.map(([name, codePoint]) => [
    `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
    name,
    codePoint,
  ])
  it.each(rows)('neutralises a sign behind %s (%s)', (_hex, _name, codePoint) => {
    const invisible = String.fromCodePoint(codePoint as number)
    for (const sign of ['=', '+', '-', '@']) {
      const text = `${invisible}${sign}HYPERLINK("x")`
      expect(isFormulaLike(text), sign).toBe(true)
      expect(isFormulaLike(`${invisible}${invisible}\u200b${sign}1`)).toBe(true)
      expect(csvCell(text)).toMatch(/^"?'/)
    }
    // Invisible alone before text is no formula.
    expect(isFormulaLike(`${invisible}plain`)).toBe(false)
  })

  it('leaves numbers alone: only text is partner text', () => {
    expect(csvCell(-3)).toBe('-3')
  })
})
