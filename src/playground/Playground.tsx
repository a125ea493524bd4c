/**
 * @module The playground page: stories on the left; the toolbar (backend, viewport, background, time),
 * the preview frame and the event log in the middle; Controls, Docs, Code and Accessibility on the right.
 * All state lives in the URL (url-state.ts). The widget runs in an iframe (frame/) of the chosen width.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { A11yPanel, type A11yReport } from './A11yPanel.tsx'
import { CodePanel } from './CodePanel.tsx'
import { ControlsPanel, type PropsDocs } from './ControlsPanel.tsx'
import { DocsPanel } from './DocsPanel.tsx'
import { EventLog } from './EventLog.tsx'
import type { LogEntry, LogKind } from './event-log.ts'
import { FRAME_PATH, type FromFrame } from './frame/frame-protocol.ts'
import { STORIES, type Story, storyArgs, storyBackendText, storyById } from './stories.ts'
import { type ClockState, TimeControl } from './TimeControl.tsx'
import { type Mode, PANELS, type Panel, type PlaygroundState, readState, writeState } from './url-state.ts'
import { usePreviewFrame } from './usePreviewFrame.ts'
import { BACKGROUNDS, type Background, VIEWPORTS, type Viewport, viewportOf } from './viewports.ts'
import {
  type ArgOverrides,
  applyOverrides,
  argAt,
  searchArgs,
  visualArgs,
  type WidgetArgs,
} from './widget-args.ts'

const PANEL_LABELS: Record<Panel, string> = {
  controls: 'Controls',
  docs: 'Docs',
  code: 'Code',
  a11y: 'Accessibility',
}

/** Older links (`?theme=dark&preview=1&width=360&endpoint=...`) still open what they showed. */
function legacyOverrides(search: string): ArgOverrides {
  const q = new URLSearchParams(search)
  const out: ArgOverrides = {}
  const theme = q.get('theme')
  if (theme === 'dark' || theme === 'light') out.theme = theme
  if (q.get('preview') === '1') out.preview = true
  const endpoint = q.get('endpoint')
  if (endpoint) out.endpoint = endpoint
  return out
}

function initialState(): PlaygroundState {
  const state = readState(window.location.search)
  const legacy = legacyOverrides(window.location.search)
  const width = viewportOf(new URLSearchParams(window.location.search).get('width'))
  return { ...state, overrides: { ...legacy, ...state.overrides }, viewport: state.viewport ?? width }
}

/**
 * A story's args in a mode, the endpoint written out as this origin (the widget's default) so that the
 * copied code works on another page.
 */
function defaultArgs(story: Story, mode: Mode): WidgetArgs {
  return { endpoint: window.location.origin, ...storyArgs(story, mode) }
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the playground's one component: story list, frame and props panel; to be split into those three (issue 34, left)
export function Playground({ docs }: { docs: PropsDocs }) {
  const [state, setState] = useState<PlaygroundState>(initialState)
  const story = storyById(state.story)
  const set = (patch: Partial<PlaygroundState>) => setState((s) => ({ ...s, ...patch }))

  useEffect(() => {
    window.history.replaceState(
      null,
      '',
      `${window.location.pathname}${writeState({ ...state, story: story.id })}`,
    )
  }, [state, story.id])

  const defaults = useMemo(() => defaultArgs(story, state.mode), [story, state.mode])
  // What the frame mounts and the code panel shows: one object.
  const args = useMemo(() => applyOverrides(defaults, state.overrides), [defaults, state.overrides])
  const viewport: Viewport = state.viewport ?? story.viewport ?? 'fill'
  const background: Background = state.background ?? (args.theme === 'dark' ? 'dark' : 'light')

  const setArg = (path: string, value: unknown) =>
    setState((s) => {
      const overrides = { ...s.overrides }
      const storyValue = argAt(defaultArgs(storyById(s.story), s.mode), path)
      if (JSON.stringify(value) === JSON.stringify(storyValue)) delete overrides[path]
      else overrides[path] = value === undefined ? null : value
      if (path === 'preview') notes.current.push(previewNote(value === true))
      return { ...s, overrides }
    })

  // The log, the a11y report and the clock, per run of the frame.
  const [entries, setEntries] = useState<LogEntry[]>([])
  const [a11y, setA11y] = useState<A11yReport>({ status: 'pending' })
  const [clock, setClock] = useState<ClockState>({ paused: false, searchElapsedMs: null })
  const runId = useRef(0)
  const nextEntry = useRef(0)
  const notes = useRef<string[]>([])
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
        setA11y((previous) => ({
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
        }))
      else if (message.type === 'a11y-error' && message.runId === runId.current)
        setA11y({ status: 'error', message: message.message })
    },
    [addEntry],
  )
  const frame = usePreviewFrame(onFrameMessage)

  const [again, setAgain] = useState(0)
  const searchKey = JSON.stringify([story.id, state.mode, searchArgs(args), again])
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
    for (const note of notes.current.splice(0)) addEntry('info', note, 0)
    send({
      type: 'run',
      runId: runId.current,
      mode: state.mode,
      scenario: story.scenario,
      args: latestArgs.current as Record<string, unknown>,
      background,
    })
  }, [ready, searchKey])

  // biome-ignore lint/correctness/useExhaustiveDependencies: visualKey stands for the visual args
  useEffect(() => {
    if (ready) send({ type: 'update', args: visualArgs(latestArgs.current) as Record<string, unknown> })
  }, [ready, visualKey])

  useEffect(() => {
    if (ready) send({ type: 'background', background })
  }, [ready, background, send])

  const changedCount = Object.keys(state.overrides).length
  const width = VIEWPORTS.find((v) => v.id === viewport)?.width

  return (
    <div className="pg">
      <nav className="pg-stories" aria-label="Stories">
        <h1>offer-widget</h1>
        <ul>
          {STORIES.map((s) => (
            <li key={s.id}>
              <a
                href={writeState({ ...state, story: s.id, overrides: {} })}
                aria-current={s.id === story.id ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault()
                  set({ story: s.id, overrides: {} })
                }}
              >
                {s.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="pg-main">
        <header className="pg-story">
          <h2>{story.title}</h2>
          <p>{story.summary}</p>
          <p className="pg-source">{storyBackendText(story, state.mode)}</p>
        </header>
        <div className="pg-toolbar">
          <label>
            Backend
            <select
              id="pg-backend"
              value={state.mode}
              onChange={(e) => set({ mode: e.target.value === 'bff' ? 'bff' : 'msw' })}
            >
              <option value="msw">msw (in the browser)</option>
              <option value="bff">real BFF + sandbox</option>
            </select>
          </label>
          <label>
            Viewport
            <select
              id="pg-viewport"
              value={String(viewport)}
              onChange={(e) => set({ viewport: viewportOf(e.target.value) })}
            >
              {VIEWPORTS.map((v) => (
                <option key={v.id} value={String(v.id)}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Background
            <select
              id="pg-background"
              value={background}
              onChange={(e) => set({ background: BACKGROUNDS.find((b) => b.id === e.target.value)?.id })}
            >
              {BACKGROUNDS.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.label}
                </option>
              ))}
            </select>
          </label>
          <TimeControl
            enabled={state.mode === 'msw'}
            clock={clock}
            onAction={(action) => send({ type: 'time', action })}
          />
          <button type="button" onClick={() => setAgain((n) => n + 1)}>
            Run again
          </button>
        </div>
        <div className="pg-stage">
          <iframe
            ref={frame.frameRef}
            title="Widget preview"
            src={FRAME_PATH}
            className="pg-frame"
            data-viewport={String(viewport)}
            style={{ width: width ?? '100%', height: Math.max(frame.height, 320) }}
          />
        </div>
        <EventLog entries={entries} onClear={() => setEntries([])} />
      </main>
      <aside className="pg-panel" aria-label="Addons">
        <div role="tablist" aria-label="Panels" className="pg-tabs">
          {PANELS.map((panel) => (
            <button
              key={panel}
              type="button"
              role="tab"
              id={`pg-tab-${panel}`}
              aria-selected={state.panel === panel}
              aria-controls="pg-tabpanel"
              tabIndex={state.panel === panel ? 0 : -1}
              onClick={() => set({ panel })}
              onKeyDown={(event) => {
                const at = PANELS.indexOf(state.panel)
                const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
                if (step === 0) return
                const next = PANELS[(at + step + PANELS.length) % PANELS.length] as Panel
                set({ panel: next })
                document.getElementById(`pg-tab-${next}`)?.focus()
              }}
            >
              {PANEL_LABELS[panel]}
              {panel === 'a11y' && a11y.status === 'done' && a11y.violations.length > 0
                ? ` (${a11y.violations.length})`
                : ''}
            </button>
          ))}
        </div>
        <div
          role="tabpanel"
          id="pg-tabpanel"
          aria-labelledby={`pg-tab-${state.panel}`}
          className="pg-tabpanel"
        >
          {state.panel === 'controls' && (
            <ControlsPanel
              docs={docs}
              storyArgs={defaults}
              args={args}
              changedCount={changedCount}
              onChange={setArg}
              onReset={() => {
                if (state.overrides.preview !== undefined)
                  notes.current.push(previewNote(defaults.preview === true))
                set({ overrides: {} })
              }}
            />
          )}
          {state.panel === 'docs' && <DocsPanel story={story} docs={docs} args={args} />}
          {state.panel === 'code' && <CodePanel args={args} />}
          {state.panel === 'a11y' && <A11yPanel report={a11y} />}
        </div>
      </aside>
    </div>
  )
}

/**
 * Preview changes start a new search: turning tracking on for offers already shown in preview would fire
 * all their pixels at once, for impressions that were never tracked as such.
 */
function previewNote(on: boolean): string {
  return on
    ? 'preview on: a new search, with unmonetized links and no pixels'
    : 'preview off: a new search, so pixels fire only for offers shown from now on (offers shown in preview are never tracked)'
}
