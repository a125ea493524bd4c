/** @module "3 of 5 insurers answered" with a progress bar while a search runs. */
import { formatLabel, type Labels } from './labels.ts'

export interface SearchProgressProps {
  answered: number
  total: number
  /** Before the first rate table: no count yet, an indeterminate bar. */
  starting: boolean
  labels: Labels
}

export function SearchProgress({ answered, total, starting, labels }: SearchProgressProps) {
  const known = !starting && total > 0
  const text = known ? formatLabel(labels.progress, { answered, total }) : labels.starting
  return (
    <div className="ow-progress">
      <p className="ow-progress-text ow-muted">{text}</p>
      <div
        className="ow-progress-bar"
        role="progressbar"
        aria-label={labels.searching}
        aria-valuemin={0}
        {...(known && { 'aria-valuemax': total, 'aria-valuenow': answered, 'aria-valuetext': text })}
      >
        <div className="ow-progress-fill" style={{ width: known ? `${(answered / total) * 100}%` : '15%' }} />
      </div>
    </div>
  )
}
