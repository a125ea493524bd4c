/**
 * @module The Accessibility panel: axe-core's verdict on the widget, re-run inside its shadow root after
 * every change (the frame runs it), each violation with the nodes it was found on.
 */
import type { A11yViolation } from './frame/frame-protocol.ts'

export type A11yReport =
  | { status: 'pending' }
  | {
      status: 'done'
      state: string
      violations: A11yViolation[]
      passes: number
      /** How many times axe ran in this run (once per change of the widget). */
      checks: number
      /** Rule ids violated in any check of this run, the states passed through included. */
      seen: string[]
    }
  | { status: 'error'; message: string }

export function A11yPanel({ report }: { report: A11yReport }) {
  if (report.status === 'pending') return <p className="pg-muted">axe-core runs once the widget renders…</p>
  if (report.status === 'error') return <p className="pg-error">axe-core failed: {report.message}</p>
  const { violations } = report
  return (
    <div className="pg-a11y">
      <p
        role="status"
        data-violations={violations.length}
        data-state={report.state}
        data-seen={report.seen.join(' ')}
      >
        {violations.length === 0
          ? 'No violations'
          : `${violations.length} violation${violations.length === 1 ? '' : 's'}`}{' '}
        in state <code>{report.state}</code> ({report.passes} rules passed).
      </p>
      <p className="pg-muted">
        axe ran {report.checks} time{report.checks === 1 ? '' : 's'} in this run, after each change of the
        widget;
        {report.seen.length === 0
          ? ' no violation in any of them.'
          : ` violated on the way: ${report.seen.join(', ')}.`}
      </p>
      <ul className="pg-plain">
        {violations.map((v) => (
          <li key={v.id} className="pg-violation">
            <p>
              <b>{v.id}</b> <span className={`pg-impact pg-impact-${v.impact ?? 'unknown'}`}>{v.impact}</span>
              : {v.help}{' '}
              <a href={v.helpUrl} target="_blank" rel="noreferrer">
                rule
              </a>
            </p>
            <ul>
              {v.nodes.map((node) => (
                <li key={node.target}>
                  <code>{node.target}</code>
                  <pre>{node.html}</pre>
                  <span className="pg-muted">{node.summary}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  )
}
