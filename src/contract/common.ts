/**
 * @module Shared field schemas and issue formatting used by every interface in this folder.
 */
import * as z from 'zod/mini'

/** A calendar date `YYYY-MM-DD` that exists (no Feb 30). */
export function realDate(field: string) {
  return z.string().check(
    z.refine((value) => isRealDate(value), {
      error: `${field} must be a real date in YYYY-MM-DD form, e.g. 1990-04-17`,
    }),
  )
}

export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** ZIP or ZIP+4; docs/offer-search-api.md gives no format, US ZIPs are what carriers license by. */
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/

/** Any 8-4-4-4-12 hex identifier; upstream ids need not be RFC 4122 v4. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export function uuidString(field: string) {
  return z.string().check(z.regex(UUID_PATTERN, { error: `${field} must be a UUID (8-4-4-4-12 hex digits)` }))
}

export function text(field: string, max: number) {
  return z
    .string({ error: `${field} must be a string` })
    .check(z.maxLength(max, { error: `${field} must be at most ${max} characters` }))
}

export function nonEmptyText(field: string, max: number) {
  return text(field, max).check(z.minLength(1, { error: `${field} is required and must not be empty` }))
}

export const ipAddress = z.union([z.ipv4(), z.ipv6()], {
  error: 'sessionInformation.ipAddress must be an IPv4 or IPv6 address',
})

/** A field problem as every error body of ours carries it: the dotted path and what to do. */
export interface FieldIssue {
  field: string
  reason: string
}

/** Turns zod issues into `{ field, reason }` pairs with dotted paths (`offers.0.rank`). */
export function toFieldIssues(error: { issues: ReadonlyArray<z.core.$ZodIssue> }): FieldIssue[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || '(body)'
    return { field, reason: describeIssue(issue, field) }
  })
}

function describeIssue(issue: z.core.$ZodIssue, field: string): string {
  // Custom messages already name the field; zod's defaults (mini ships no locale) get one that does.
  if (issue.message && issue.message !== 'Invalid input') return issue.message
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `${field} is required`
        : `${field} must be ${article(issue.expected)} ${issue.expected}`
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'too_small':
      return `${field} is too small (minimum ${String(issue.minimum)})`
    case 'too_big':
      return `${field} is too big (maximum ${String(issue.maximum)})`
    case 'invalid_format':
      return `${field} must be a valid ${issue.format}`
    case 'unrecognized_keys':
      return `${field} has unknown keys: ${issue.keys.join(', ')}`
    default:
      return `${field} is invalid`
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a'
}
