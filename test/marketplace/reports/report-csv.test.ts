/**
 * @module CSV cells of partner reports: quoted, formulas neutralized.
 */
import { describe, expect, it } from 'vitest'
import { csvCell } from '../../../src/marketplace/reports/report-csv.ts'

describe('CSV cells', () => {
  it('quote separators and neutralize formulas in partner text', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell(-3)).toBe('-3')
  })
})
