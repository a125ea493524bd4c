/**
 * @module The checker's human-readable report: the leads sent, one line per check with PASS, WARN (a
 * warning check found something; the run still passes) or FAIL and the reason, the latency summary, and a
 * verdict. `--json` prints the report object itself instead.
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
    const found = check.ok ? check.warnings : check.failures
    const verdict = !check.ok ? 'FAIL' : found.length > 0 ? 'WARN' : 'PASS'
    lines.push(`  ${verdict}  ${pad(check.id, checkWidth)}${check.title}: ${check.detail}`)
    for (const failure of found.slice(0, SHOWN_FAILURES))
      lines.push(`        - ${failure.lead}: ${failure.message}`)
    if (found.length > SHOWN_FAILURES)
      lines.push(`        - ... and ${found.length - SHOWN_FAILURES} more (see --json)`)
  }

  const { latency } = report
  lines.push(
    '',
    `Latency  p50 ${ms(latency.p50Ms)}  p95 ${ms(latency.p95Ms)}  max ${ms(latency.maxMs)}  (window ${ms(report.windowMs)}, ${latency.samples} leads)`,
  )
  lines.push('', 'Your obligations (not testable from here; they hold whatever the checks say)')
  for (const obligation of report.obligations) lines.push(`  - ${obligation}`)
  const failed = report.checks.filter((check) => !check.ok).length
  const warned = report.checks.filter((check) => check.ok && check.warnings.length > 0).length
  const warnings = warned === 0 ? '' : ` (${warned} with warnings)`
  lines.push(
    '',
    failed === 0
      ? `PASS: all ${report.checks.length} checks passed${warnings}`
      : `FAIL: ${failed} of ${report.checks.length} checks failed${warnings}`,
  )
  return `${lines.join('\n')}\n`
}
