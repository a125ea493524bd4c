/**
 * @module Finds the lead's own PII in a URL a partner sent (`click_url`, `logo_src`): the SSN, phone number,
 * email address and date of birth (docs/partner-interface.md, "PII in partner URLs"), in every spelling the
 * masking knows (digits with or without spaces, dots, dashes, slashes or parentheses; the phone with or
 * without +1; the date as Y-M-D, M-D-Y or D-M-Y) and in the encodings a URL carries: as is, percent-encoded
 * (up to three times) with `+` as a space, and any path segment or query value in base64 or base64url. Such
 * an offer breaks the contract: it is dropped and never stored, and the browser is never sent there.
 */
import type { Lead } from '../../contract/partner.ts'
import { spellingsOf } from './redact.ts'

type PiiKind = 'SSN' | 'phone number' | 'email address' | 'date of birth'

export type PiiFinder = (url: string) => PiiKind | undefined

/** How many percent-decodings are undone: a double-encoded value is common, more is deliberate hiding. */
const MAX_DECODES = 3
/** A base64 token long enough to hide a 9-digit SSN (12 characters), cut at URL delimiters. */
const BASE64_TOKEN = /[A-Za-z0-9+/_-]{12,}={0,2}/g

export function createPiiFinder(lead: Lead): PiiFinder {
  const p = lead.personalInformation
  const kinds: Array<{ kind: PiiKind; pattern: RegExp }> = [
    { kind: 'SSN', value: p.ssn },
    { kind: 'phone number', value: p.primaryPhone },
    { kind: 'date of birth', value: p.dateOfBirth },
    { kind: 'email address', value: p.email },
  ]
    .filter(({ value }) => value.trim().length >= 3)
    .map(({ kind, value }) => ({
      kind: kind as PiiKind,
      pattern:
        kind === 'email address'
          ? new RegExp(escapeRegExp(value.trim()), 'i')
          : new RegExp(spellingsOf(value.trim()).join('|'), 'i'),
    }))
  return (url) => {
    const texts = decodedForms(url)
    for (const { kind, pattern } of kinds) if (texts.some((text) => pattern.test(text))) return kind
    return undefined
  }
}

/** The URL as is, each percent-decoding of it, and every base64 token in any of those, decoded. */
function decodedForms(url: string): string[] {
  const forms = [url]
  let current = url
  for (let i = 0; i < MAX_DECODES; i++) {
    const next = safeDecode(current.replace(/\+/g, ' '))
    if (next === current) break
    forms.push(next)
    current = next
  }
  const decoded: string[] = []
  for (const form of forms) {
    // Whole tokens, and tokens cut at `/` too: standard base64 uses `/`, which is also a path separator.
    const tokens = new Set([...form.matchAll(BASE64_TOKEN)].map((m) => m[0]))
    for (const token of [...tokens])
      for (const part of token.split('/')) if (part.length >= 12) tokens.add(part)
    for (const token of tokens) {
      const standard = token.replace(/-/g, '+').replace(/_/g, '/')
      // Every alignment: a token may begin with a URL character that is not part of the encoding.
      for (let skip = 0; skip < 4 && standard.length - skip >= 12; skip++) {
        decoded.push(Buffer.from(standard.slice(skip), 'base64').toString('latin1'))
      }
    }
  }
  return [...forms, ...decoded]
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    // A stray `%` stops decodeURIComponent; decode the valid escapes one by one.
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run)
      } catch {
        return run
      }
    })
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
