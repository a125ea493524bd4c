/**
 * @module The story's play script under its header, as Storybook's Interactions panel shows one: the
 * verdict (running, passed, or the step that failed and why) in a status region, so it is announced, and
 * the steps themselves, each marked passed, failed or not reached (they are in the event log too, kind
 * `play`).
 */
import { describeStep, type PlayStep } from './frame/play-step.ts'

export type PlayReport =
  | { status: 'none' }
  | {
      status: 'running' | 'passed' | 'failed'
      text: string
      /** The step running, or the one that failed (1-based); every step when passed. */
      step: number
    }

export const NO_PLAY: PlayReport = { status: 'none' }

type Mark = 'passed' | 'failed' | 'running' | 'pending'

function markOf(report: PlayReport, number: number): Mark {
  if (report.status === 'none') return 'pending'
  if (report.status === 'passed' || number < report.step) return 'passed'
  if (number > report.step) return 'pending'
  return report.status === 'failed' ? 'failed' : 'running'
}

const SIGN: Record<Mark, string> = { passed: '✓', failed: '✗', running: '…', pending: '·' }

export function PlayStatus({ report, steps }: { report: PlayReport; steps?: readonly PlayStep[] }) {
  return (
    <>
      <p className="pg-play" role="status" data-play={report.status}>
        {report.status === 'none' ? null : `Play script: ${report.text}`}
      </p>
      {steps && steps.length > 0 && (
        <details className="pg-play-steps" open={report.status === 'failed' || undefined}>
          <summary>Interactions ({steps.length})</summary>
          <ol>
            {steps.map((step, index) => {
              const mark = markOf(report, index + 1)
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: a script's steps are its positions
                <li key={index} data-mark={mark}>
                  <span aria-hidden="true">{SIGN[mark]}</span>{' '}
                  {describeStep(step, 'fill' in step && /ssn|social/i.test(step.fill))}
                  <span className="pg-visually-hidden"> ({mark})</span>
                </li>
              )
            })}
          </ol>
        </details>
      )}
    </>
  )
}
