/**
 * @module The lead's identifying values in canonical form (see `pii-canonical.ts`), and where they are
 * found in a canonical string. One value gives several needles, each searched in one projection:
 * - SSN and phone: their digits anywhere in the digit stream, glued to other digits or not, so the phone
 *   with `1`, `+1` or `001` before it is found too. The SSN's last four alone are not looked for: four
 *   digits are a year, a ZIP+4 or an amount in every other offer, and alone they identify nobody.
 * - Date of birth: `yyyymmdd`, `mmddyyyy`, `ddmmyyyy` anywhere (any separator or none, already gone from
 *   the digit stream); the same without zero padding (`7191983`) and with a two-digit year (`071983`) only
 *   as a whole run of digits, since six or seven digits glued inside a longer number match by chance far
 *   more often; and the month by name (`July 19, 1983`, `19 Jul 1983`) as words.
 * - Email: its letters and digits run together (`patprobeloansexamplecom`) when that is 8 characters or
 *   more, else as consecutive words, so it is found with its `@` percent-encoded, in any case, or with its
 *   local part and domain in two query parameters.
 * - Name: first and last name as consecutive words, either order, or run together when that is 10
 *   letters or more; street address as consecutive words. Whole words only: a lead named Ann Lee is not
 *   found in "JoAnn Leeds".
 */

import type { Canonical } from './pii-canonical.ts'

export type PiiKind = 'SSN' | 'phone number' | 'date of birth' | 'email address' | 'name' | 'street address'

export type Needle =
  | { kind: PiiKind; in: 'digits'; text: string; wholeRun?: boolean }
  | { kind: PiiKind; in: 'alnum'; text: string }
  | { kind: PiiKind; in: 'tokens'; words: string[] }

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** `1st`, `2nd`, `3rd`; every other day, and 11 to 13, is `th`. */
const ORDINALS: Record<number, string> = { 1: 'st', 2: 'nd', 3: 'rd' }

/** Letters and digits of a value, lower-cased, as the canonical streams spell them. */
function wordsOf(value: string): string[] {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{Nd}]+/u)
    .filter((w) => w.length > 0)
}

export function digitNeedles(kind: 'SSN' | 'phone number', value: string): Needle[] {
  const digits = value.replace(/\D/g, '')
  const national =
    kind === 'phone number' && digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
  if (national.length < 7) return []
  const needles: Needle[] = [{ kind, in: 'digits', text: national }]
  // Longer spellings first, so a mask covers the country code too.
  if (kind === 'phone number') {
    needles.unshift(
      { kind, in: 'digits', text: `001${national}` },
      { kind, in: 'digits', text: `1${national}` },
    )
  }
  return needles
}

export function dateNeedles(value: string): Needle[] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim())
  if (!match) return []
  const [, year = '', month = '', day = ''] = match
  const kind = 'date of birth'
  const needles: Needle[] = []
  const add = (text: string, wholeRun: boolean) => {
    if (!needles.some((n) => n.in === 'digits' && n.text === text))
      needles.push({ kind, in: 'digits', text, wholeRun })
  }
  add(`${year}${month}${day}`, false)
  add(`${month}${day}${year}`, false)
  add(`${day}${month}${year}`, false)
  const m1 = String(Number(month))
  const d1 = String(Number(day))
  const yy = year.slice(2)
  for (const [m, d] of [
    [m1, d1],
    [month, d1],
    [m1, day],
  ] as const) {
    add(`${year}${m}${d}`, true)
    add(`${m}${d}${year}`, true)
    add(`${d}${m}${year}`, true)
  }
  add(`${month}${day}${yy}`, true)
  add(`${day}${month}${yy}`, true)
  add(`${yy}${month}${day}`, true)
  const name = MONTHS[Number(month) - 1]
  if (name !== undefined) {
    const suffix = ORDINALS[Number(day) % 10] && !/^1\d$/.test(day) ? ORDINALS[Number(day) % 10] : 'th'
    for (const m of new Set([name, name.slice(0, 3), name === 'september' ? 'sept' : name]))
      for (const d of new Set([d1, day, `${d1}${suffix}`])) {
        needles.push({ kind, in: 'tokens', words: [m, d, year] }, { kind, in: 'tokens', words: [d, m, year] })
      }
  }
  return needles
}

export function emailNeedles(value: string): Needle[] {
  const words = wordsOf(value)
  const joined = words.join('')
  if (joined.length < 3) return []
  const kind = 'email address'
  const needles: Needle[] =
    joined.length >= 8 ? [{ kind, in: 'alnum', text: joined }] : [{ kind, in: 'tokens', words }]
  // Spelled out against scrapers: `jane dot doe at example dot com`, `jane.doe(at)example(dot)com`: the
  // `@` as "at", and each side's dots as "dot" or kept.
  const at = value.lastIndexOf('@')
  if (at > 0 && joined.length >= 8) {
    const local = wordsOf(value.slice(0, at))
    const domain = wordsOf(value.slice(at + 1))
    for (const localDot of ['', 'dot']) {
      for (const domainDot of ['', 'dot']) {
        needles.push({ kind, in: 'alnum', text: `${local.join(localDot)}at${domain.join(domainDot)}` })
      }
    }
  }
  return needles
}

/** First and last name together, either order; run together too when that is long enough to be specific. */
export function fullNameNeedles(first: string, last: string): Needle[] {
  const f = wordsOf(first)
  const l = wordsOf(last)
  if (f.length === 0 || l.length === 0) return []
  const needles: Needle[] = [
    { kind: 'name', in: 'tokens', words: [...f, ...l] },
    { kind: 'name', in: 'tokens', words: [...l, ...f] },
  ]
  const joined = [...f, ...l].join('')
  if (joined.length >= 10) needles.push({ kind: 'name', in: 'alnum', text: joined })
  return needles
}

/** A text value (a name, a street address, a city) as whole words. */
export function wordNeedles(kind: PiiKind, value: string, minWords = 1): Needle[] {
  const words = wordsOf(value)
  return words.length >= minWords && words.join('').length >= 3 ? [{ kind, in: 'tokens', words }] : []
}

/** Every place a needle occurs, as source spans `[from, to)`. */
export function findNeedle(canonical: Canonical, needle: Needle, all: boolean): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  if (needle.in === 'tokens') {
    const { tokens } = canonical
    const n = needle.words.length
    for (let i = 0; i + n <= tokens.length; i++) {
      if (needle.words.every((w, k) => tokens[i + k]?.text === w)) {
        spans.push([tokens[i]?.from ?? 0, tokens[i + n - 1]?.to ?? 0])
        if (!all) break
      }
    }
    return spans
  }
  const projection = needle.in === 'digits' ? canonical.digits : canonical.alnum
  const { text } = projection
  for (let at = text.indexOf(needle.text); at !== -1; at = text.indexOf(needle.text, at + 1)) {
    const end = at + needle.text.length
    if (needle.in === 'digits' && needle.wholeRun) {
      const before = at === 0 || text[at - 1] === '|'
      const after = end === text.length || text[end] === '|'
      if (!before || !after) continue
    }
    spans.push([projection.from[at] ?? 0, projection.to[end - 1] ?? 0])
    if (!all) break
  }
  return spans
}
