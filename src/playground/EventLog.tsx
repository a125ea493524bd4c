/** @module The event log panel: newest first, colour-coded by kind. */
import { useEffect, useState } from 'react'
import type { EventLog as Log, LogEntry } from './event-log.ts'

export function EventLog({ log, runKey }: { log: Log; runKey: string }) {
  const [entries, setEntries] = useState<LogEntry[]>([])
  // A new run starts a fresh log.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runKey is the reset signal
  useEffect(() => {
    setEntries([])
    return log.subscribe((entry) => setEntries((list) => [entry, ...list].slice(0, 300)))
  }, [log, runKey])
  return (
    <section className="pg-log" aria-labelledby="pg-log-heading">
      <h2 id="pg-log-heading">Event log</h2>
      <ol>
        {entries.map((entry) => (
          <li key={entry.id} className={`pg-log-${entry.kind}`}>
            <span className="pg-log-at">{(entry.at / 1000).toFixed(1)} s</span> <b>{entry.kind}</b>{' '}
            {entry.text}
          </li>
        ))}
      </ol>
    </section>
  )
}
