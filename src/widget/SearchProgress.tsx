/**
 * @module The status line above the offers. While a search runs it counts what the visitor sees ("2 offers
 * so far, still checking 3 more sources") over a bar that moves with answers and with time; then "Search
 * complete: 4 offers." (or, when polling failed with offers shown, that some quotes could not be loaded; or,
 * when the search failed with nothing shown, that offers could not be loaded) in the same place. The region keeps its height when the search ends, so nothing below it moves. A second
 * look says how many lenders it asks, how many answered and how long it waits at most, counting down.
 */
import { type CSSProperties, useEffect, useState } from 'react'
import { completeLabel, countLabel, formatLabel, type Labels } from './labels.ts'
import { type LenderProgress, secondsLeft } from './second-look.ts'

export interface SearchProgressProps {
  /** `starting`: before the first rate table (no count yet). */
  phase: 'starting' | 'searching' | 'done'
  answered: number
  total: number
  /** Offers on screen. */
  offerCount: number
  /** Done because polling failed for good (offers are on screen). */
  failed?: boolean
  /** Ended in an error with nothing on screen: the line says so, in the same place (nothing below moves). */
  error?: boolean
  /** That error is the BFF's refusal of this browser (403): no retry can help, and the line says so. */
  refused?: boolean
  /** Second look: lenders asked and answered, and the time the wait ends at the latest. */
  lenders?: LenderProgress | undefined
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

/** The second look's sentence: "Asking 6 lenders · 2 answered · up to 21 s left". */
export function lenderText(labels: Labels, lenders: LenderProgress, now: number): string {
  const values = {
    lenders: countLabel(labels.lendersOne, labels.lendersMany, lenders.asked),
    total: lenders.asked,
    answered: lenders.answered,
    seconds: lenders.answerBy === undefined ? '' : secondsLeft(lenders.answerBy, now),
  }
  return formatLabel(
    lenders.answerBy === undefined ? labels.lenderProgressOpen : labels.lenderProgress,
    values,
  )
}

/** `Date.now()`, again every second while `active`: the countdown moves between polls too. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return active ? Math.max(now, Date.now()) : now
}

export function SearchProgress(props: SearchProgressProps) {
  const { phase, answered, total, offerCount, failed, error, labels, lenders } = props
  const now = useNow(phase !== 'done' && lenders?.answerBy !== undefined)
  // The time band crosses the bar over the wait the server announced, fixed once (a changing duration
  // would make the band jump).
  const [wait] = useState(() =>
    lenders?.answerBy === undefined
      ? undefined
      : `${Math.max(1, secondsLeft(lenders.answerBy, Date.now()))}s`,
  )
  if (phase === 'done') {
    return (
      <div className="ow-progress" data-ow-done={error ? 'error' : failed ? 'partial' : ''}>
        <p className="ow-progress-text ow-muted">
          {error
            ? props.refused
              ? labels.refused
              : labels.error
            : failed
              ? labels.partial
              : offerCount === 0
                ? labels.completeNone
                : completeLabel(labels, offerCount)}
        </p>
        {/* No progressbar role any more: the bar only holds the region's height, full (empty after an error). */}
        <div className="ow-progress-bar" aria-hidden="true">
          <div className="ow-progress-fill" style={{ width: error ? '0%' : '100%' }} />
        </div>
      </div>
    )
  }
  const asking = phase === 'searching' && lenders !== undefined && lenders.asked > 0
  const known = asking || (phase === 'searching' && total > 0)
  const done = asking ? lenders.answered : answered
  const of = asking ? lenders.asked : total
  const text = asking
    ? lenderText(labels, lenders, now)
    : known
      ? progressText(labels, offerCount, answered, total)
      : labels.starting
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
        {...(known && { 'aria-valuemax': of, 'aria-valuenow': done, 'aria-valuetext': text })}
        style={wait ? ({ '--ow-wait': wait } as CSSProperties) : undefined}
      >
        <div className="ow-progress-fill" style={{ width: known ? `${(done / of) * 100}%` : '0%' }} />
      </div>
    </div>
  )
}
