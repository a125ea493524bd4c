/**
 * @module The status line above the offers. While a search runs it counts what the visitor sees ("2 offers
 * so far, still checking 3 more sources") over a bar that moves with answers and with time; then "Search
 * complete: 4 offers." (or, when polling failed with offers shown, that some quotes could not be loaded) in
 * the same place. The region keeps its height when the search ends, so nothing below it moves.
 */
import { completeLabel, countLabel, formatLabel, type Labels } from './labels.ts'

export interface SearchProgressProps {
  /** `starting`: before the first rate table (no count yet). */
  phase: 'starting' | 'searching' | 'done'
  answered: number
  total: number
  /** Offers on screen. */
  offerCount: number
  /** Done because polling failed for good (offers are on screen). */
  failed?: boolean
  labels: Labels
}

/** The sentence for a running search; `{answered}` and `{total}` stay available to overridden templates. */
export function progressText(labels: Labels, offerCount: number, answered: number, total: number): string {
  const pending = total - answered
  const values = {
    answered,
    total,
    count: offerCount,
    pending,
    offers: countLabel(labels.offersOne, labels.offersMany, offerCount),
    sources: countLabel(labels.sourcesOne, labels.sourcesMany, pending),
  }
  return formatLabel(offerCount > 0 ? labels.progress : labels.progressNone, values)
}

export function SearchProgress({ phase, answered, total, offerCount, failed, labels }: SearchProgressProps) {
  if (phase === 'done') {
    return (
      <div className="ow-progress" data-ow-done={failed ? 'partial' : ''}>
        <p className="ow-progress-text ow-muted">
          {failed ? labels.partial : completeLabel(labels, offerCount)}
        </p>
        {/* No progressbar role any more: the bar only holds the region's height, full. */}
        <div className="ow-progress-bar" aria-hidden="true">
          <div className="ow-progress-fill" style={{ width: '100%' }} />
        </div>
      </div>
    )
  }
  const known = phase === 'searching' && total > 0
  const text = known ? progressText(labels, offerCount, answered, total) : labels.starting
  // The fill follows answers; behind it a CSS-animated band crosses the polling window, so the bar moves
  // while partners are quiet too (still under prefers-reduced-motion).
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
        <div className="ow-progress-fill" style={{ width: known ? `${(answered / total) * 100}%` : '0%' }} />
      </div>
    </div>
  )
}
