/**
 * @module The one PII finder over everything a partner sends back
 * (docs/decisions/0097-pii-in-partner-replies.md): an offer's `name`, `display_name`, `offer_details`, `product_type`, `click_url` and
 * `logo_src`, and the reply's `lead_id` and `reason` (masked by `redact.ts` with the same matching). It
 * normalises first and searches after: every form the string decodes to (`pii-decode.ts`: percent and
 * base64 layers, to a bound, refusing what decodes past it), each as canonical streams (`pii-canonical.ts`:
 * any script's digits, compatibility forms, invisible characters and separators gone), searched for each of
 * the lead's values in their canonical spellings (`pii-needles.ts`). A URL is also read across its parts:
 * its path segments and query keys and values joined in order, and every two of them in either order, so
 * an SSN or an email split over two parameters is whole again.
 */
import type { Lead } from '../../contract/partner.ts'
import { type Canonical, canonicalOf } from './pii-canonical.ts'
import { decodedForms, MAX_DECODE_DEPTH, percentDecoded } from './pii-decode.ts'
import {
  dateNeedles,
  digitNeedles,
  emailNeedles,
  findNeedle,
  fullNameNeedles,
  type Needle,
  type PiiKind,
  wordNeedles,
} from './pii-needles.ts'

/** What the finder saw: one of the lead's values, or an encoding nested past the bound it reads. */
export type PiiFinding = PiiKind | 'nested encoding'

/** Any partner string in, the first thing found (or nothing). */
export type PiiFinder = (value: string) => PiiFinding | undefined

export { MAX_DECODE_DEPTH }

/** Parts of a URL paired two by two up to this many (quadratic); past it, only the in-order join is read. */
const MAX_PAIRED_PARTS = 24

/** The lead's values that make an offer unusable: SSN, phone, date of birth, email, full name, street address. */
function leadNeedles(lead: Lead): Needle[] {
  const p = lead.personalInformation
  return [
    ...digitNeedles('SSN', p.ssn),
    ...digitNeedles('phone number', p.primaryPhone),
    ...dateNeedles(p.dateOfBirth),
    ...emailNeedles(p.email),
    ...fullNameNeedles(p.firstName, p.lastName),
    // One word ("Main") is a place name, not an address.
    ...wordNeedles('street address', p.address1, 2),
  ]
}

export function createPiiFinder(lead: Lead): PiiFinder {
  const needles = leadNeedles(lead)
  return (value) => findIn(value, needles)
}

/** The first needle found in any reading of `value`; `nested encoding` when it decodes past the bound. */
export function findIn(value: string, needles: readonly Needle[]): PiiFinding | undefined {
  const { forms, tooDeep } = decodedForms(value)
  // Refused on its own, whatever it hides: the forms read are not all the string can be decoded into.
  if (tooDeep) return 'nested encoding'
  for (const form of forms) {
    const canonical = canonicalOf(form)
    for (const needle of needles) if (findNeedle(canonical, needle, false).length > 0) return needle.kind
  }
  for (const form of forms) {
    for (const reading of partReadings(form)) {
      for (const needle of needles) if (findNeedle(reading, needle, false).length > 0) return needle.kind
    }
  }
  return undefined
}

/**
 * The parts of each URL or query string in `text` (a run without spaces holding `/`, `?`, `&`, `=`, `#`
 * or `;`): its path segments, query keys and values and fragment pieces, each decoded, read joined in
 * order and two by two in both orders. A value split over parameters is whole in one of these.
 */
function* partReadings(text: string): Generator<Canonical> {
  for (const chunk of text.split(/\s+/)) {
    const raw = chunk.split(/[/?&=#;]/).filter(hasWord)
    if (raw.length < 2) continue
    // Query values alone, in order: keys between the pieces of a split value would break it.
    const values = chunk
      .split(/[?&#;]/)
      .map((pair) => pair.slice(pair.indexOf('=') + 1))
      .filter(hasWord)
    // Each part as its percent-decoding and as its deepest reading (a part may be base64 of a piece).
    for (const decode of [percentDecoded, (part: string) => decodedForms(part).forms.at(-1) ?? part]) {
      const parts = raw.map((part) => canonicalOf(decode(part)))
      yield parts.reduce(joined)
      if (values.length >= 2) yield values.map((part) => canonicalOf(decode(part))).reduce(joined)
      if (parts.length > MAX_PAIRED_PARTS) continue
      for (const [i, a] of parts.entries())
        for (const [j, b] of parts.entries()) if (i !== j && j !== i + 1) yield joined(a, b)
    }
  }
}

function hasWord(part: string): boolean {
  return /[\p{L}\p{N}]/u.test(part)
}

/** Two canonical readings one after the other, as if their parts had never been apart (no source spans). */
function joined(a: Canonical, b: Canonical): Canonical {
  // A part's own letters at its edges (`ssn=`, `&b=`) do not separate it from the next part's digits.
  const edge = /^\|+|\|+$/g
  const projection = (x: string, y: string) => ({ text: x + y, from: [], to: [] })
  return {
    digits: projection(a.digits.text.replace(edge, ''), b.digits.text.replace(edge, '')),
    alnum: projection(a.alnum.text, b.alnum.text),
    tokens: [...a.tokens, ...b.tokens],
  }
}
