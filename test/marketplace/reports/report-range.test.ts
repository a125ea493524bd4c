/**
 * @module The partner report date range: defaults, bounds, and error messages that say what to send.
 */
import { describe, expect, it } from 'vitest'
import { parseReportRange } from '../../../src/marketplace/reports/report-range.ts'

describe('report range', () => {
  const now = Date.parse('2026-03-15T12:00:00Z')
  it('defaults to the last 30 days', () => {
    expect(parseReportRange(undefined, undefined, now)).toEqual({
      ok: true,
      from: new Date('2026-02-13T12:00:00Z'),
      to: new Date('2026-03-15T12:00:00Z'),
    })
  })
  it('takes whole days, `to` inclusive, or timestamps; refuses a reversed or year-long-plus range', () => {
    expect(parseReportRange('2026-03-01', '2026-03-01', now)).toMatchObject({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
    })
    expect(parseReportRange('2026-03-01T06:00:00Z', undefined, now)).toMatchObject({ ok: true })
    expect(parseReportRange('2026-02-30', undefined, now).ok).toBe(false)
    expect(parseReportRange('2026-03-02', '2026-03-01', now).ok).toBe(false)
    expect(parseReportRange('2020-01-01', '2026-01-01', now).ok).toBe(false)
  })
  it('says what is wrong with the range and what to send instead', () => {
    const reason = (from?: string, to?: string) => {
      const r = parseReportRange(from, to, now)
      return r.ok ? '' : r.errors.map((e) => `${e.field}: ${e.reason}`).join(' | ')
    }
    expect(reason('2026-02-30')).toMatch(
      /^from: from="2026-02-30" is not a day of the calendar: send a real date/,
    )
    expect(reason(undefined, 'last week')).toMatch(/^to: to="last week" is neither a date \(YYYY-MM-DD/)
    expect(reason('2026-03-01T99:00:00Z')).toMatch(/is not a valid ISO 8601 timestamp/)
    expect(reason('2026-03-02', '2026-03-01')).toMatch(
      /from must be before to, and from=2026-03-02 and to=2026-03-01 is not: send an earlier from or a later to/,
    )
    expect(reason('2020-01-01', '2026-01-01')).toMatch(
      /at most 366 days and from=2020-01-01 to=2026-01-01 spans 2193/,
    )
  })
})
