/**
 * @module The playground page: stories on the left (StoryList.tsx, with search); the toolbar (backend,
 * viewport, background, zoom, outline and measure, time),
 * the preview frame and the event log in the middle; Controls, Docs, Code and Accessibility on the right.
 * All state lives in the URL (url-state.ts). The widget runs in an iframe (frame/) of the chosen width.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { A11yPanel, type A11yReport } from './A11yPanel.tsx'
import { CodePanel } from './CodePanel.tsx'
import { ControlsPanel, type PropsDocs } from './ControlsPanel.tsx'
import { DocsPanel } from './DocsPanel.tsx'
import { EventLog } from './EventLog.tsx'
import { InspectToggles } from './InspectToggles.tsx'
import { PlayStatus } from './PlayStatus.tsx'
import { PreviewStage } from './PreviewStage.tsx'
import { StoryList } from './StoryList.tsx'
import { storyArgs, storyBackendText, storyById, storyPlay } from './stories.ts'
import type { Story } from './story.ts'
import { TimeControl } from './TimeControl.tsx'
import { type Mode, PANELS, type Panel, type PlaygroundState, readState, writeState } from './url-state.ts'
import { type PreviewRun, usePreviewRun } from './usePreviewRun.ts'
import { BACKGROUNDS, type Background, VIEWPORTS, type Viewport, viewportOf } from './viewports.ts'
import { type ArgOverrides, applyOverrides, argAt, type WidgetArgs } from './widget-args.ts'
import { ZoomControl } from './ZoomControl.tsx'

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

/** The playground page: the story list, the preview pane and the addon panel, over one state in the URL. */
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
  // Notes for the next run's log (preview turned on or off).
  const notes = useRef<string[]>([])

  const setArg = (path: string, value: unknown) =>
    setState((s) => {
      const overrides = { ...s.overrides }
      const storyValue = argAt(defaultArgs(storyById(s.story), s.mode), path)
      if (JSON.stringify(value) === JSON.stringify(storyValue)) delete overrides[path]
      else overrides[path] = value === undefined ? null : value
      if (path === 'preview') notes.current.push(previewNote(value === true))
      return { ...s, overrides }
    })
  const resetArgs = () => {
    if (state.overrides.preview !== undefined) notes.current.push(previewNote(defaults.preview === true))
    set({ overrides: {} })
  }

  const run = usePreviewRun({ story, mode: state.mode, args, background, notes })

  return (
    <div className="pg">
      <StoryList state={state} current={story} onPick={(id) => set({ story: id, overrides: {} })} />
      <PreviewPane
        story={story}
        state={state}
        viewport={viewport}
        background={background}
        run={run}
        set={set}
      />
      <AddonPanel
        docs={docs}
        story={story}
        panel={state.panel}
        onPanel={(panel) => set({ panel })}
        a11y={run.a11y}
        defaults={defaults}
        args={args}
        changedCount={Object.keys(state.overrides).length}
        onArg={setArg}
        onReset={resetArgs}
      />
    </div>
  )
}

interface PreviewPaneProps {
  story: Story
  state: PlaygroundState
  viewport: Viewport
  background: Background
  run: PreviewRun
  set: (patch: Partial<PlaygroundState>) => void
}

/** The middle column: the story's header, the toolbar, the frame at the viewport's width, the event log. */
function PreviewPane({ story, state, viewport, background, run, set }: PreviewPaneProps) {
  const { frame } = run
  const width = VIEWPORTS.find((v) => v.id === viewport)?.width
  const [scale, setScale] = useState(1)
  const { ready, send } = frame
  useEffect(() => {
    if (ready) send({ type: 'inspect', outline: state.outline, measure: state.measure })
  }, [ready, send, state.outline, state.measure])
  return (
    <main className="pg-main">
      <header className="pg-story">
        <h2>{story.title}</h2>
        <p>{story.summary}</p>
        <p className="pg-source">{storyBackendText(story, state.mode)}</p>
        <PlayStatus report={run.play} steps={storyPlay(story, state.mode)} />
      </header>
      <Toolbar state={state} viewport={viewport} background={background} run={run} set={set} scale={scale} />
      <PreviewStage
        frameRef={frame.frameRef}
        viewport={viewport}
        width={width}
        height={frame.height}
        zoom={state.zoom}
        onScale={setScale}
      />
      <EventLog entries={run.entries} onClear={run.clearLog} />
    </main>
  )
}

/** Backend, viewport and background, zoom, outline and measure, the time control, and Run again. */
function Toolbar({
  state,
  viewport,
  background,
  run,
  set,
  scale,
}: Omit<PreviewPaneProps, 'story'> & { scale: number }) {
  return (
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
      <ZoomControl zoom={state.zoom} scale={scale} onZoom={(zoom) => set({ zoom })} />
      <InspectToggles outline={state.outline} measure={state.measure} onChange={set} />
      <TimeControl
        enabled={state.mode === 'msw'}
        clock={run.clock}
        onAction={(action) => run.frame.send({ type: 'time', action })}
      />
      <button type="button" onClick={run.runAgain}>
        Run again
      </button>
    </div>
  )
}

interface AddonPanelProps {
  docs: PropsDocs
  story: Story
  panel: Panel
  onPanel: (panel: Panel) => void
  a11y: A11yReport
  /** The story's args in this mode; `args` with the overrides applied. */
  defaults: WidgetArgs
  args: WidgetArgs
  changedCount: number
  onArg: (path: string, value: unknown) => void
  onReset: () => void
}

/** The right column: the tabs (arrow keys move between them) and the open panel. */
function AddonPanel({ panel: open, onPanel, a11y, ...props }: AddonPanelProps) {
  return (
    <aside className="pg-panel" aria-label="Addons">
      <div role="tablist" aria-label="Panels" className="pg-tabs">
        {PANELS.map((panel) => (
          <button
            key={panel}
            type="button"
            role="tab"
            id={`pg-tab-${panel}`}
            aria-selected={open === panel}
            aria-controls="pg-tabpanel"
            tabIndex={open === panel ? 0 : -1}
            onClick={() => onPanel(panel)}
            onKeyDown={(event) => {
              const at = PANELS.indexOf(open)
              const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
              if (step === 0) return
              const next = PANELS[(at + step + PANELS.length) % PANELS.length] as Panel
              onPanel(next)
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
      <div role="tabpanel" id="pg-tabpanel" aria-labelledby={`pg-tab-${open}`} className="pg-tabpanel">
        {open === 'controls' && (
          <ControlsPanel
            docs={props.docs}
            storyArgs={props.defaults}
            args={props.args}
            changedCount={props.changedCount}
            onChange={props.onArg}
            onReset={props.onReset}
          />
        )}
        {open === 'docs' && <DocsPanel story={props.story} docs={props.docs} args={props.args} />}
        {open === 'code' && <CodePanel args={props.args} />}
        {open === 'a11y' && <A11yPanel report={a11y} />}
      </div>
    </aside>
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
