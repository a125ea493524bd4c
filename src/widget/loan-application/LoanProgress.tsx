/** @module Where the visitor is in the application: "Step 2 of 5" over a progress bar named for assistive tech. */
import { formatLabel } from '../labels.ts'
import type { LoanLabels } from './loan-labels.ts'

export function LoanProgress(props: { step: number; total: number; labels: LoanLabels }) {
  const text = formatLabel(props.labels.loanStepOf, { step: props.step, total: props.total })
  return (
    <div className="ow-loan-progress">
      <p className="ow-loan-step-of ow-muted">{text}</p>
      <progress
        className="ow-loan-bar"
        max={props.total}
        value={props.step}
        aria-label={props.labels.loanProgress}
        aria-valuetext={text}
      />
    </div>
  )
}
