/**
 * @module Keeps the lead's identity out of what we store and log from a partner: a partner's free-text
 * `reason`, and the `lead_id` it builds, could echo the SSN, phone, date of birth, email, names or address
 * it was sent, so each is masked in place with the PII finder's own matching (`pii-canonical.ts`,
 * `pii-needles.ts`): any script's digits, any separators, glued digits, every date spelling, names and
 * places as whole words. What is found only once decoded (percent or base64), or is encoded past the
 * finder's bound, cannot be masked in place: the whole value is masked.
 */
import type { Lead } from '../../contract/partner.ts'
import { canonicalOf } from './pii-canonical.ts'
import { findIn } from './pii-finder.ts'
import {
  dateNeedles,
  digitNeedles,
  emailNeedles,
  findNeedle,
  fullNameNeedles,
  type Needle,
  wordNeedles,
} from './pii-needles.ts'

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
  let out = mask(reason, needlesOf(values))
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return out.length > MAX_REASON ? `${out.slice(0, MAX_REASON - 1)}…` : out
}

/** A partner's `lead_id`, masked the same way (it is stored, reported and matched by conversions). */
export function redactLeadId(leadId: string | undefined, values: readonly string[]): string | undefined {
  return redactReason(leadId, values)
}

/** Every span any needle covers, replaced; the whole value when something is still found after that. */
function mask(text: string, needles: readonly Needle[]): string {
  const canonical = canonicalOf(text)
  const spans = needles.flatMap((needle) => findNeedle(canonical, needle, true))
  let out = text
  if (spans.length > 0) {
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])
    const merged: Array<[number, number]> = []
    for (const [from, to] of spans) {
      const last = merged.at(-1)
      if (last && from <= last[1]) last[1] = Math.max(last[1], widen(text, to, 1))
      else merged.push([widen(text, from, -1), widen(text, to, 1)])
    }
    out = ''
    let at = 0
    for (const [from, to] of merged) {
      out += `${text.slice(at, from)}${REDACTED}`
      at = to
    }
    out += text.slice(at)
  }
  // Found only in a decoded reading, or encoded past the bound: nothing of it can be kept.
  return findIn(out.replaceAll(REDACTED, ' '), needles) === undefined ? out : REDACTED
}

/** A mask takes the `+` or bracket around a phone number with it: `(202) 555-0147` is masked whole. */
function widen(text: string, index: number, direction: -1 | 1): number {
  if (direction < 0) return index > 0 && '(+'.includes(text[index - 1] ?? '') ? index - 1 : index
  return ')'.includes(text[index] ?? '_') ? index + 1 : index
}

// One set of needles per lead: run-lead hands the same array for every partner of the lead.
const compiled = new WeakMap<readonly string[], Needle[]>()

/** Needles of each value by its shape: a date, a run of digits (SSN, phone), an email, or words. */
function needlesOf(values: readonly string[]): Needle[] {
  let needles = compiled.get(values)
  if (needles === undefined) {
    needles = values.flatMap((value): Needle[] => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dateNeedles(value)
      const digits = value.replace(/\D/g, '')
      if (digits.length >= 7 && /^[\d\s().+-]+$/.test(value))
        return digitNeedles(digits.length === 9 ? 'SSN' : 'phone number', value)
      if (value.includes('@')) return emailNeedles(value)
      return wordNeedles('name', value)
    })
    // Two names (or a name and a place) run together, `QuentinaProbeworth`, when long enough to be specific.
    const words = values.filter((value) => /^[\p{L}\s'.-]+$/u.test(value))
    for (const a of words)
      for (const b of words)
        if (a !== b) needles.push(...fullNameNeedles(a, b).filter((n) => n.in === 'alnum'))
    compiled.set(values, needles)
  }
  return needles
}
