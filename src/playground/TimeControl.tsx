/**
 * @module Time control for msw mode: pause, step one second, jump to the end of the 15 s window. The
 * frame's fake clock drives the widget and the fake BFF together; the real BFF keeps real time, so the
 * controls are off in that mode and say why.
 */
export interface ClockState {
  paused: boolean
  searchElapsedMs: number | null
}

export interface TimeControlProps {
  enabled: boolean
  clock: ClockState
  onAction: (action: 'pause' | 'play' | 'step' | 'end') => void
}

export function TimeControl({ enabled, clock, onAction }: TimeControlProps) {
  const elapsed = clock.searchElapsedMs
  return (
    <fieldset className="pg-time" disabled={!enabled}>
      <legend>Time</legend>
      <button
        type="button"
        onClick={() => onAction(clock.paused ? 'play' : 'pause')}
        aria-pressed={clock.paused}
      >
        {clock.paused ? 'Play' : 'Pause'}
      </button>
      <button type="button" onClick={() => onAction('step')}>
        Step 1 s
      </button>
      <button type="button" onClick={() => onAction('end')} disabled={elapsed === null}>
        End of 15 s window
      </button>
      <output className="pg-clock" aria-live="off" data-elapsed={elapsed ?? ''} data-paused={clock.paused}>
        {!enabled
          ? 'real time (the real BFF keeps its own clock)'
          : elapsed === null
            ? 'no search yet'
            : `${(elapsed / 1000).toFixed(1)} s since the search started${clock.paused ? ', paused' : ''}`}
      </output>
    </fieldset>
  )
}
