/**
 * @module "3 of 5 insurers answered" with a progress bar while a search runs, then "Search complete: 4
 * offers." in the same place. The region keeps its height when the search ends, so nothing below it moves.
 */
import { completeLabel, formatLabel, type Labels } from './labels.ts'

export interface SearchProgressProps {
  /** `starting`: before the first rate table (no count yet, an indeterminate bar). */
  phase: 'starting' | 'searching' | 'done'
  answered: number
  total: number
  /** Shown once the search is done. */
  offerCount: number
  labels: Labels
}

export function SearchProgress({ phase, answered, total, offerCount, labels }: SearchProgressProps) {
  if (phase === 'done') {
    return (
      <div className="ow-progress" data-ow-done="">
        <p className="ow-progress-text ow-muted">{completeLabel(labels, offerCount)}</p>
        {/* No progressbar role any more: the bar only holds the region's height, full. */}
        <div className="ow-progress-bar" aria-hidden="true">
          <div className="ow-progress-fill" style={{ width: '100%' }} />
        </div>
      </div>
    )
  }
  const known = phase === 'searching' && total > 0
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
