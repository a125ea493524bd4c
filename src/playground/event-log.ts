/**
 * @module The event log's entries: requests and pixels (from Resource Timing in the preview frame, so it
 * works the same with msw and with the real BFF), the widget's callbacks, every event of its contract
 * (`onEvent`, docs/events.md), the story's play steps and
 * verdict, and the playground's own notes.
 */
import type { LogKind } from './frame/frame-protocol.ts'

export type { LogKind }

export const LOG_KINDS: readonly LogKind[] = ['request', 'pixel', 'callback', 'event', 'play', 'info']

export interface LogEntry {
  id: number
  /** Ms since the run started, on the frame's clock. */
  at: number
  kind: LogKind
  text: string
}

/** What "Copy as JSON" puts on the clipboard: the entries shown, oldest first. */
export function logAsJson(entries: readonly LogEntry[]): string {
  return JSON.stringify(
    [...entries].sort((a, b) => a.id - b.id).map(({ at, kind, text }) => ({ at, kind, text })),
    null,
    2,
  )
}
