/**
 * @module The story's play script under its header: running, passed, or the step that failed and why (the
 * steps themselves are in the event log, kind `play`). A status region, so the verdict is announced.
 */

export type PlayReport = { status: 'none' } | { status: 'running' | 'passed' | 'failed'; text: string }

export const NO_PLAY: PlayReport = { status: 'none' }

export function PlayStatus({ report }: { report: PlayReport }) {
  return (
    <p className="pg-play" role="status" data-play={report.status}>
      {report.status === 'none' ? null : `Play script: ${report.text}`}
    </p>
  )
}
