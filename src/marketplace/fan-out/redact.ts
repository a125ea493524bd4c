/**
 * @module Keeps the lead's identity out of what we store and log from a partner: a partner's free-text
 * `reason`, and the `lead_id` it builds, could echo the SSN, phone, date of birth or email it was sent, so
 * every identifying value of the lead is masked in them, whole tokens only, in the spellings a partner
 * might use (`219 09 9999`, `(202) 555-0147`, `1979/11/23`, `11/23/1979`).
 */
import type { Lead } from '../../contract/partner.ts'

const MAX_REASON = 500
const REDACTED = '[redacted]'

/** The lead's identifying values as it sent them; {@link redactReason} derives the other spellings. */
export function identifyingValues(lead: Lead): string[] {
  const p = lead.personalInformation
  const values = [
    p.ssn,
    p.email,
    p.primaryPhone,
    p.firstName,
    p.lastName,
    p.address1,
    p.address2 ?? '',
    p.dateOfBirth,
    p.city,
  ]
  // Whole tokens only, so a short name masks only itself ("Doe", never the "doe" of "does"); one or two
  // letters would still mask ordinary words ("Al", "Jo"), so those are left out.
  return [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= 3))]
}

/** Masks every identifying value (any case, whole tokens), strips control characters, caps the length. */
export function redactReason(reason: string | undefined, values: readonly string[]): string | undefined {
  if (reason === undefined) return undefined
  const pattern = patternOf(values)
  let out = pattern ? reason.replace(pattern, REDACTED) : reason
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return out.length > MAX_REASON ? `${out.slice(0, MAX_REASON - 1)}…` : out
}

/** A partner's `lead_id`, masked the same way (it is stored, reported and matched by conversions). */
export function redactLeadId(leadId: string | undefined, values: readonly string[]): string | undefined {
  return redactReason(leadId, values)
}

// One compiled pattern per lead: run-lead hands the same array for every partner of the lead.
const compiled = new WeakMap<readonly string[], RegExp | undefined>()

function patternOf(values: readonly string[]): RegExp | undefined {
  if (compiled.has(values)) return compiled.get(values)
  const sources = new Set<string>()
  for (const value of values) for (const source of spellingsOf(value)) sources.add(source)
  // Longest first, so a part (a first name) never splits a whole (the street address holding it).
  const list = [...sources].sort((a, b) => b.length - a.length)
  const pattern = list.length === 0 ? undefined : new RegExp(list.join('|'), 'gi')
  compiled.set(values, pattern)
  return pattern
}

const SEPARATOR = '[\\s().+/\\\\_-]*'
/**
 * A letter or digit of the names we see (ASCII and Latin-1/Extended-A/B): a class rather than `\\p{L}`, whose
 * Unicode tables cost a compile of several milliseconds on the first reply of a process, inside the window.
 */
const WORD_CHAR = '[0-9A-Za-z_\\u00C0-\\u024F]'
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Regex sources for one value: dates and digit runs in every usual spelling, text as a whole token. */
export function spellingsOf(value: string): string[] {
  const date = DATE.exec(value)
  if (date) {
    const [, year, month, day] = date as unknown as [string, string, string, string]
    const m = `0?${Number(month)}`
    const d = `0?${Number(day)}`
    const yy = `(?:${year}|${year.slice(2)})`
    const sep = '[\\s./-]?'
    return [
      digitsOnly(`${year}${sep}${m}${sep}${d}`),
      digitsOnly(`${m}${sep}${d}${sep}${yy}`),
      digitsOnly(`${d}${sep}${m}${sep}${yy}`),
    ]
  }
  const digits = value.replace(/\D/g, '')
  // An SSN or a phone number: its digits with any separators between them (and the phone's +1 or not).
  if (digits.length >= 7 && /^[\d\s().+-]+$/.test(value)) {
    const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
    const run = [...national].join(SEPARATOR)
    return [digitsOnly(national.length === 10 ? `(?:\\+?1${SEPARATOR})?\\(?${run}` : run)]
  }
  const words = value.split(/\s+/).map(escapeRegExp).join('\\s+')
  return [`(?<!${WORD_CHAR})${words}(?!${WORD_CHAR})`]
}

/** Not inside a longer number: `123456789` is not part of `91234567890`. */
function digitsOnly(source: string): string {
  return `(?<!\\d)${source}(?!\\d)`
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
