/**
 * @module The one "a spreadsheet would run this cell" predicate for CSV exports (OWASP CSV injection).
 * Excel and LibreOffice skip leading whitespace, control and invisible characters before reading `=`, `+`,
 * `-` or `@`, and may take the fullwidth (`＝＋－＠`) and small (`﹦﹢﹣﹫`) forms, which NFKC folds to them,
 * as the ASCII ones; so does the cell's own leading tab, CR or LF. Any such start is neutralised, not only an
 * ASCII sign in the first position.
 */

/**
 * Characters a spreadsheet may skip before a formula sign, by Unicode property so no invisible one is left
 * out: whitespace, controls, format characters (zero-width, bidi, tags, the BOM, the soft hyphen) and every
 * default-ignorable code point (Hangul fillers, variation selectors, the combining grapheme joiner, Khmer
 * inherent vowels); plus the blanks that render as nothing yet carry no such property (U+2800 braille
 * pattern blank, U+1D159 musical symbol null notehead).
 */
const IGNORED = '\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u{2800}\\u{1D159}'
/** Formula signs: ASCII, fullwidth and small (U+FE62 U+FE63 U+FE66 U+FE6B); a leading tab, CR or LF by itself. */
const FORMULA_START = new RegExp(
  `^(?:[\\t\\r\\n]|[${IGNORED}]*[=+\\-@\\uff1d\\uff0b\\uff0d\\uff20\\ufe62\\ufe63\\ufe66\\ufe6b])`,
  'u',
)

/** True when a text cell would be evaluated as a formula by a spreadsheet that opens the CSV. */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text)
}
