/**
 * @module The event log's entries: requests and pixels (from Resource Timing, so it works the same with
 * msw and with the real BFF) and the widget's callbacks.
 */

export type LogKind = 'request' | 'pixel' | 'callback' | 'info'

export interface LogEntry {
  id: number
  at: number
  kind: LogKind
  text: string
}

type Listener = (entry: LogEntry) => void

export function createEventLog() {
  let next = 0
  const listeners = new Set<Listener>()
  const start = performance.now()
  const add = (kind: LogKind, text: string) => {
    const entry = { id: next++, at: Math.round(performance.now() - start), kind, text }
    for (const listener of listeners) listener(entry)
  }
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const url = new URL(entry.name)
      const status = 'responseStatus' in entry && entry.responseStatus ? ` → ${entry.responseStatus}` : ''
      if (url.pathname.includes('/pixels/')) add('pixel', `${url.pathname}${status}`)
      else if (entry.initiatorType === 'fetch' && url.pathname.startsWith('/api/'))
        add('request', `${url.pathname}${status}`)
    }
  })
  observer.observe({ type: 'resource' })
  return {
    add,
    subscribe(listener: Listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    close: () => observer.disconnect(),
  }
}

export type EventLog = ReturnType<typeof createEventLog>
