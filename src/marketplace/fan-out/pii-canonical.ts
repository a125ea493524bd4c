/**
 * @module Partner text as canonical streams, so the PII finder compares like with like however a value is
 * spelled (docs/partner-interface.md#pii-in-replies). Each character is taken through NFKD
 * (fullwidth, superscript and circled digits, ligatures, fullwidth `＠`), its marks dropped (`é` is `e`),
 * every decimal digit of any script read as its value (`٩`, `९`, `９` are 9), letters lower-cased, and
 * invisible format characters (zero-width space, soft hyphen, bidi marks, word joiner) removed as if absent.
 * Three projections follow, each character remembering the span of the source it came from, so a match can
 * be masked in place:
 * - `digits`: every digit, with anything but a letter between them skipped (`987–65:4329` is `987654329`)
 *   and each run of letters a break (`|`), so a value found inside it may be glued to other digits;
 * - `alnum`: letters and digits only, run together (an email without its `@` and dots);
 * - `tokens`: letter-and-digit words, for names and street addresses that must match whole words.
 */

interface Projection {
  text: string
  /** Source index (UTF-16) where each character of `text` starts, and where it ends. */
  from: number[]
  to: number[]
}

interface Token {
  text: string
  from: number
  to: number
}

export interface Canonical {
  digits: Projection
  alnum: Projection
  tokens: Token[]
}

/** A separator of words, never just skipped: a line break between two names keeps them two words. */
const SPACE = /\s/u
/** Invisible: format characters (ZWSP, soft hyphen, bidi marks, BOM) and the remaining controls. */
const INVISIBLE = /[\p{Cf}\p{Cc}]/u
const MARK = /\p{M}/u
const DIGIT = /\p{Nd}/u
const LETTER = /\p{L}/u
/** Compiled once per process, not inside a partner's window. */
const DIGIT_VALUES = new Map<number, string>()

export function canonicalOf(source: string): Canonical {
  const digits: Projection = { text: '', from: [], to: [] }
  const alnum: Projection = { text: '', from: [], to: [] }
  const tokens: Token[] = []
  let token: Token | undefined
  const endToken = () => {
    if (token) tokens.push(token)
    token = undefined
  }
  /** One canonical character (a digit 0-9 or a lower-case letter) from the source span `[from, to)`. */
  const emit = (c: string, from: number, to: number) => {
    const isDigit = c >= '0' && c <= '9'
    if (isDigit) push(digits, c, from, to)
    else if (!digits.text.endsWith('|')) push(digits, '|', from, to)
    push(alnum, c, from, to)
    if (token) {
      token.text += c
      token.to = to
    } else token = { text: c, from, to }
  }
  let index = 0
  for (const char of source) {
    const from = index
    index += char.length
    const to = index
    const code = char.charCodeAt(0)
    // ASCII, most of every partner string, without the Unicode tables: the same result, a fraction of the work.
    if (code < 0x80) {
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) endToken()
      else if (code >= 0x30 && code <= 0x39) emit(char, from, to)
      else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a))
        emit(char.toLowerCase(), from, to)
      else if (code > 0x20 && code < 0x7f) endToken()
      continue
    }
    if (SPACE.test(char)) {
      endToken()
      continue
    }
    if (INVISIBLE.test(char)) continue
    for (const part of char.normalize('NFKD')) {
      if (MARK.test(part) || INVISIBLE.test(part)) continue
      let out: string
      if (DIGIT.test(part)) out = digitValue(part)
      else if (LETTER.test(part)) out = part.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '')
      else {
        endToken()
        continue
      }
      for (const c of out) emit(c, from, to)
    }
  }
  endToken()
  return { digits, alnum, tokens }
}

function push(projection: Projection, char: string, from: number, to: number): void {
  projection.text += char
  projection.from.push(from)
  projection.to.push(to)
}

/**
 * The ASCII digit of any `Nd` character. Unicode keeps each script's digits as ten consecutive code points
 * from zero, so the value is the distance from the start of the run of digits, modulo ten.
 */
function digitValue(char: string): string {
  const code = char.codePointAt(0) ?? 0
  if (code >= 0x30 && code <= 0x39) return char
  let value = DIGIT_VALUES.get(code)
  if (value === undefined) {
    let start = code
    while (start > 0 && DIGIT.test(String.fromCodePoint(start - 1))) start--
    value = String((code - start) % 10)
    DIGIT_VALUES.set(code, value)
  }
  return value
}
