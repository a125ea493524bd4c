/**
 * @module The `from` / `to` query of a partner report: a date (`2026-03-01`, a whole UTC day, `to`
 * inclusive) or an ISO timestamp; the last 30 days when absent; a year at most. Each error says what was
 * given, what is wrong with it, and what to send instead.
 */
import type { FieldIssue } from '../../contract/common.ts'
import { isRealDate } from '../../contract/common.ts'

const DAY_MS = 86_400_000
const DEFAULT_RANGE_DAYS = 30
const MAX_RANGE_DAYS = 366

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
    const given = `from=${from ?? `(30 days before to: ${start.toISOString()})`} and to=${to ?? `(now: ${end.toISOString()})`}`
    return {
      ok: false,
      errors: [
        {
          field: 'from',
          reason: `from must be before to, and ${given} is not: send an earlier from or a later to (to is inclusive for a date, so from=to=2026-03-01 is that whole day)`,
        },
      ],
    }
  }
  const days = Math.ceil((end.getTime() - start.getTime()) / DAY_MS)
  if (days > MAX_RANGE_DAYS) {
    return {
      ok: false,
      errors: [
        {
          field: 'from',
          reason: `a report covers at most ${MAX_RANGE_DAYS} days and from=${from} to=${to ?? 'now'} spans ${days}: ask for the range in parts`,
        },
      ],
    }
  }
  return { ok: true, from: start, to: end }
}

function parseBound(value: string, field: 'from' | 'to', errors: FieldIssue[]): Date | undefined {
  const shown = JSON.stringify(value.slice(0, 40))
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    if (isRealDate(value)) {
      const midnight = Date.parse(`${value}T00:00:00Z`)
      // `to=2026-03-31` includes the 31st.
      return new Date(field === 'to' ? midnight + DAY_MS : midnight)
    }
    errors.push({
      field,
      reason: `${field}=${shown} is not a day of the calendar: send a real date like 2026-03-01`,
    })
    return undefined
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value)
    if (Number.isFinite(ms)) return new Date(ms)
    errors.push({
      field,
      reason: `${field}=${shown} is not a valid ISO 8601 timestamp: send one like 2026-03-01T00:00:00Z`,
    })
    return undefined
  }
  errors.push({
    field,
    reason: `${field}=${shown} is neither a date (YYYY-MM-DD, e.g. 2026-03-01) nor an ISO 8601 timestamp (2026-03-01T00:00:00Z)`,
  })
  return undefined
}
