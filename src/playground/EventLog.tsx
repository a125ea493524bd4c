/**
 * @module The event log panel: newest first, filter by kind, clear, copy as JSON. The list is a
 * focusable, labelled region so a keyboard can scroll it.
 */
import { useState } from 'react'
import { LOG_KINDS, type LogEntry, type LogKind, logAsJson } from './event-log.ts'
import { useCopy } from './useCopy.ts'

export interface EventLogProps {
  entries: readonly LogEntry[]
  onClear: () => void
}

export function EventLog({ entries, onClear }: EventLogProps) {
  const [hidden, setHidden] = useState<ReadonlySet<LogKind>>(new Set())
  const [status, copy] = useCopy()
  const shown = entries.filter((entry) => !hidden.has(entry.kind))
  const toggle = (kind: LogKind) =>
    setHidden((set) => {
      const next = new Set(set)
      if (next.has(kind)) next.delete(kind)
      else next.add(kind)
      return next
    })
  return (
    <section className="pg-log" aria-labelledby="pg-log-heading">
      <div className="pg-log-bar">
        <h2 id="pg-log-heading">Event log</h2>
        <fieldset className="pg-log-filter">
          <legend className="pg-visually-hidden">Show kinds</legend>
          {LOG_KINDS.map((kind) => (
            <button
              key={kind}
              type="button"
              className={`pg-kind pg-log-${kind}`}
              aria-pressed={!hidden.has(kind)}
              onClick={() => toggle(kind)}
            >
              {kind} ({entries.filter((e) => e.kind === kind).length})
            </button>
          ))}
        </fieldset>
        <button type="button" onClick={onClear} disabled={entries.length === 0}>
          Clear
        </button>
        <button type="button" onClick={() => copy(logAsJson(shown), `${shown.length} entries as JSON`)}>
          Copy as JSON
        </button>
        <span role="status" className="pg-status">
          {status}
        </span>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <ol tabIndex={0} aria-label={`Events, ${shown.length} shown`} className="pg-log-list">
        {shown.map((entry) => (
          <li key={entry.id} className={`pg-log-${entry.kind}`} data-kind={entry.kind}>
            <span className="pg-log-at">{(entry.at / 1000).toFixed(1)} s</span> <b>{entry.kind}</b>{' '}
            {entry.text}
          </li>
        ))}
      </ol>
    </section>
  )
}
