/**
 * @module The checker's human-readable report: the leads sent, one line per check with PASS or FAIL and
 * the reason, the latency summary, and a verdict. `--json` prints the report object itself instead.
 */
import type { ConformanceReport } from './conformance-checker.ts'

/** Failures shown per check; the JSON report keeps them all. */
const SHOWN_FAILURES = 5

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length)
}

function ms(value: number): string {
  return `${Math.round(value)} ms`
}

export function formatReport(report: ConformanceReport): string {
  const lines: string[] = []
  lines.push(`offer-widget check-partner ${report.url}`)
  lines.push(
    `${report.leads.length} synthetic leads, ${report.concurrency} at a time, response window ${ms(report.windowMs)}`,
  )
  lines.push('', 'Leads')
  const idWidth = Math.max(...report.leads.map((lead) => lead.id.length), 4) + 2
  for (const lead of report.leads) {
    const answer =
      lead.outcome === 'replied'
        ? `HTTP ${lead.httpStatus ?? '?'}  ${pad(lead.status ?? '(no status)', 9)} ${lead.offers === undefined ? '' : `${lead.offers} offer${lead.offers === 1 ? '' : 's'}`}`
        : lead.outcome === 'timeout'
          ? 'no reply (aborted)'
          : `no reply (${lead.error ?? 'network error'})`
    lines.push(`  ${pad(lead.id, idWidth)}${pad(ms(lead.ms), 9)} ${answer.trimEnd()}`)
  }

  lines.push('', 'Checks')
  const checkWidth = Math.max(...report.checks.map((check) => check.id.length)) + 2
  for (const check of report.checks) {
    lines.push(`  ${check.ok ? 'PASS' : 'FAIL'}  ${pad(check.id, checkWidth)}${check.title}: ${check.detail}`)
    for (const failure of check.failures.slice(0, SHOWN_FAILURES))
      lines.push(`        - ${failure.lead}: ${failure.message}`)
    if (check.failures.length > SHOWN_FAILURES)
      lines.push(`        - ... and ${check.failures.length - SHOWN_FAILURES} more (see --json)`)
  }

  const { latency } = report
  lines.push(
    '',
    `Latency  p50 ${ms(latency.p50Ms)}  p95 ${ms(latency.p95Ms)}  max ${ms(latency.maxMs)}  (window ${ms(report.windowMs)}, ${latency.samples} leads)`,
  )
  lines.push('', 'Your obligations (not testable from here; they hold whatever the checks say)')
  for (const obligation of report.obligations) lines.push(`  - ${obligation}`)
  const failed = report.checks.filter((check) => !check.ok).length
  lines.push(
    '',
    failed === 0
      ? `PASS: all ${report.checks.length} checks passed`
      : `FAIL: ${failed} of ${report.checks.length} checks failed`,
  )
  return `${lines.join('\n')}\n`
}
