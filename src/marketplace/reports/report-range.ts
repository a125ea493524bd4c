/**
 * @module The `from` / `to` query of a partner report: a date (`2026-03-01`, a whole UTC day, `to`
 * inclusive) or an ISO timestamp; the last 30 days when absent; a year at most.
 */
import type { FieldIssue } from '../../contract/common.ts'
import { isRealDate } from '../../contract/common.ts'

const DAY_MS = 86_400_000
export const DEFAULT_RANGE_DAYS = 30
export const MAX_RANGE_DAYS = 366

export type ReportRange = { ok: true; from: Date; to: Date } | { ok: false; errors: FieldIssue[] }

export function parseReportRange(from: string | undefined, to: string | undefined, now: number): ReportRange {
  const errors: FieldIssue[] = []
  const end = to === undefined ? new Date(now) : parseBound(to, 'to', errors)
  const start =
    from === undefined
      ? new Date((end?.getTime() ?? now) - DEFAULT_RANGE_DAYS * DAY_MS)
      : parseBound(from, 'from', errors)
  if (errors.length > 0 || start === undefined || end === undefined) return { ok: false, errors }
  if (start.getTime() >= end.getTime()) {
    return { ok: false, errors: [{ field: 'from', reason: 'from must be before to' }] }
  }
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    return {
      ok: false,
      errors: [{ field: 'from', reason: `a report covers at most ${MAX_RANGE_DAYS} days` }],
    }
  }
  return { ok: true, from: start, to: end }
}

function parseBound(value: string, field: 'from' | 'to', errors: FieldIssue[]): Date | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value)) {
    const midnight = Date.parse(`${value}T00:00:00Z`)
    // `to=2026-03-31` includes the 31st.
    return new Date(field === 'to' ? midnight + DAY_MS : midnight)
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value)
    if (Number.isFinite(ms)) return new Date(ms)
  }
  errors.push({ field, reason: `${field} must be a date like 2026-03-01 or an ISO 8601 timestamp` })
  return undefined
}
