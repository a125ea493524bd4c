/**
 * @module The one "a spreadsheet would run this cell" predicate for CSV exports (OWASP CSV injection).
 * Excel and LibreOffice skip leading whitespace, control and invisible characters before reading `=`, `+`,
 * `-` or `@`, and may take the fullwidth (`＝＋－＠`) and small (`﹦﹢﹣﹫`) forms, which NFKC folds to them,
 * as the ASCII ones; so does the cell's own leading tab, CR or LF. Any such start is neutralised, not only an ASCII sign in the first position.
 */

/** Characters a spreadsheet skips before a formula sign: whitespace, C0 controls, zero-width and bidi marks. */
const IGNORED =
  '\\s\\u0000-\\u001f\\u007f\\u00a0\\u00ad\\u180e\\u200b-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff'
/** Formula signs: ASCII, fullwidth and small (U+FE62 U+FE63 U+FE66 U+FE6B); a leading tab, CR or LF by itself. */
const FORMULA_START = new RegExp(
  `^(?:[\\t\\r\\n]|[${IGNORED}]*[=+\\-@\\uff1d\\uff0b\\uff0d\\uff20\\ufe62\\ufe63\\ufe66\\ufe6b])`,
)

/** True when a text cell would be evaluated as a formula by a spreadsheet that opens the CSV. */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text)
}
