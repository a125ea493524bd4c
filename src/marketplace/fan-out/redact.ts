/**
 * @module Keeps the lead's identity out of what we store and log from a partner: a partner's free-text
 * `reason` could echo the SSN or email it was sent, so every identifying value of the lead is masked in it.
 */
import type { Lead } from '../../contract/partner.ts'

const MAX_REASON = 500

/** The lead's identifying values, each in the spellings a partner might echo back. */
export function identifyingValues(lead: Lead): string[] {
  const p = lead.personalInformation
  const digits = (value: string) => value.replace(/\D/g, '')
  const values = [
    p.ssn,
    digits(p.ssn),
    p.email,
    p.primaryPhone,
    digits(p.primaryPhone),
    p.firstName,
    p.lastName,
    p.address1,
    p.address2 ?? '',
    p.dateOfBirth,
    p.city,
  ]
  // Short values (a two-letter name) would mask ordinary words; longest first so a part never splits a whole.
  return [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= 3))].sort(
    (a, b) => b.length - a.length,
  )
}

/** Masks every identifying value (any case), strips control characters, and caps the length. */
export function redactReason(reason: string | undefined, values: readonly string[]): string | undefined {
  if (reason === undefined) return undefined
  let out = reason
  for (const value of values) out = out.replace(new RegExp(escapeRegExp(value), 'gi'), '[redacted]')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return out.length > MAX_REASON ? `${out.slice(0, MAX_REASON - 1)}…` : out
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
