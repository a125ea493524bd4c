/**
 * @module The preview frame's side of the playground: one run per new search (the story, the backend or an
 * arg that is not purely visual changed, or Run again), and what the frame reports of it: the event log, the
 * accessibility report, the clock and the play script's verdict.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import type { A11yReport } from './A11yPanel.tsx'
import type { LogEntry, LogKind } from './event-log.ts'
import type { FromFrame } from './frame/frame-protocol.ts'
import { NO_PLAY, type PlayReport } from './PlayStatus.tsx'
import { storyPlay } from './stories.ts'
import type { Story } from './story.ts'
import type { ClockState } from './TimeControl.tsx'
import type { Mode } from './url-state.ts'
import { usePreviewFrame } from './usePreviewFrame.ts'
import type { Background } from './viewports.ts'
import { searchArgs, visualArgs, type WidgetArgs } from './widget-args.ts'

/** The preview frame's side of the playground: one run per new search, and what the frame reports of it. */
export interface PreviewRun {
  frame: ReturnType<typeof usePreviewFrame>
  /** The run's event log, newest first. */
  entries: LogEntry[]
  clearLog(): void
  a11y: A11yReport
  clock: ClockState
  /** The story's play script in this run: none, running, or its verdict. */
  play: PlayReport
  /** Starts a new search with the same args (Run again). */
  runAgain(): void
}

interface PreviewRunInput {
  story: Story
  mode: Mode
  args: WidgetArgs
  background: Background
  /** Logged first in the next run, then emptied. */
  notes: RefObject<string[]>
}

/**
 * Runs the story in the frame: a new run (log and a11y report cleared, the notes logged first) whenever
 * the story, the backend or any arg that is not purely visual changes; visual args and the background are
 * sent to the run in place.
 */
export function usePreviewRun({ story, mode, args, background, notes }: PreviewRunInput): PreviewRun {
  // The log, the a11y report and the clock, per run of the frame.
  const [entries, setEntries] = useState<LogEntry[]>([])
  const [a11y, setA11y] = useState<A11yReport>({ status: 'pending' })
  const [clock, setClock] = useState<ClockState>({ paused: false, searchElapsedMs: null })
  const [play, setPlay] = useState<PlayReport>(NO_PLAY)
  const runId = useRef(0)
  const nextEntry = useRef(0)
  const addEntry = useCallback((kind: LogKind, text: string, at: number) => {
    const entry = { id: nextEntry.current++, kind, text, at }
    setEntries((list) => [entry, ...list].slice(0, 500))
  }, [])

  const onFrameMessage = useCallback(
    (message: FromFrame) => {
      if (message.type === 'clock')
        setClock({ paused: message.paused, searchElapsedMs: message.searchElapsedMs })
      else if (message.type === 'log' && message.runId === runId.current)
        addEntry(message.kind, message.text, message.at)
      else if (message.type === 'a11y' && message.runId === runId.current)
        setA11y((previous) => withCheck(previous, message))
      else if (message.type === 'a11y-error' && message.runId === runId.current)
        setA11y({ status: 'error', message: message.message })
      else if (message.type === 'play' && message.runId === runId.current)
        setPlay({ status: message.status, text: message.text, step: message.step })
    },
    [addEntry],
  )
  const frame = usePreviewFrame(onFrameMessage)

  const [again, setAgain] = useState(0)
  const searchKey = JSON.stringify([story.id, mode, searchArgs(args), again])
  const visualKey = JSON.stringify(visualArgs(args))
  const latestArgs = useRef(args)
  latestArgs.current = args
  const { ready, send } = frame

  // A new search: the story, the backend or any arg that is not purely visual changed (or Run again).
  // biome-ignore lint/correctness/useExhaustiveDependencies: searchKey is the new-search signal
  useEffect(() => {
    if (!ready) return
    runId.current += 1
    setEntries([])
    setA11y({ status: 'pending' })
    setPlay(NO_PLAY)
    for (const note of notes.current.splice(0)) addEntry('info', note, 0)
    send({
      type: 'run',
      runId: runId.current,
      mode,
      scenario: story.scenario,
      args: latestArgs.current as Record<string, unknown>,
      background,
      play: storyPlay(story, mode)?.slice(),
    })
  }, [ready, searchKey])

  // biome-ignore lint/correctness/useExhaustiveDependencies: visualKey stands for the visual args
  useEffect(() => {
    if (ready) send({ type: 'update', args: visualArgs(latestArgs.current) as Record<string, unknown> })
  }, [ready, visualKey])

  useEffect(() => {
    if (ready) send({ type: 'background', background })
  }, [ready, background, send])

  return {
    frame,
    entries,
    clearLog: () => setEntries([]),
    a11y,
    clock,
    play,
    runAgain: () => setAgain((n) => n + 1),
  }
}

/** The report after one more axe check of the run: its verdict, the count, and every rule violated so far. */
function withCheck(previous: A11yReport, message: Extract<FromFrame, { type: 'a11y' }>): A11yReport {
  return {
    status: 'done',
    state: message.state,
    violations: message.violations,
    passes: message.passes,
    checks: previous.status === 'done' ? previous.checks + 1 : 1,
    seen: [
      ...new Set([
        ...(previous.status === 'done' ? previous.seen : []),
        ...message.violations.map((v) => v.id),
      ]),
    ],
  }
}
