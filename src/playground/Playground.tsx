/**
 * @module The playground page: stories on the left, controls and the live widget in the middle, the
 * event log on the right. All state lives in the URL (url-state.ts).
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { EmbedOptions } from '../embed/index.ts'
import type { Labels } from '../widget/index.ts'
import { EventLog } from './EventLog.tsx'
import type { EventLog as Log } from './event-log.ts'
import { passThrough, runScenario } from './mock-worker.ts'
import { STORIES, storyById } from './stories.ts'
import { type PlaygroundState, readState, writeState } from './url-state.ts'
import { WidgetPreview } from './WidgetPreview.tsx'

export function Playground({ log }: { log: Log }) {
  const [state, setState] = useState<PlaygroundState>(() => readState(window.location.search))
  const story = storyById(state.story)
  const [run, setRun] = useState(0)

  useEffect(() => {
    window.history.replaceState(
      null,
      '',
      `${window.location.pathname}${writeState({ ...state, story: story.id })}`,
    )
  }, [state, story.id])

  const set = (patch: Partial<PlaygroundState>) => setState((s) => ({ ...s, ...patch }))
  const runKey = `${story.id}:${state.mode}:${state.endpoint}:${run}`

  const prepare = useCallback(
    () => (state.mode === 'msw' ? runScenario(story.scenario) : passThrough()),
    [state.mode, story.scenario],
  )

  const options = useMemo<EmbedOptions>(() => {
    const given = story.options ?? {}
    const zip = state.mode === 'bff' ? story.zip : story.zip && '94107'
    const search = zip ? { ...given.search, zipCode: zip } : given.search
    return {
      ...given,
      endpoint: state.endpoint,
      ...(search && { search }),
      ...(state.theme && { theme: state.theme }),
      preview: state.preview,
      labels: { ...given.labels, ...state.labels },
      onSearchCreated: (e) => log.add('callback', `onSearchCreated ${e.source} ${e.uuid}`),
      onOffersShown: (offers) =>
        log.add('callback', `onOffersShown ${offers.map((o) => o.carrierName).join(', ')}`),
      onOfferClick: (offer) => log.add('callback', `onOfferClick ${offer.carrierName} → ${offer.href}`),
      onComplete: (e) =>
        log.add('callback', `onComplete ${e.offerCount} offers${e.incomplete ? ' (incomplete)' : ''}`),
      onError: (error) => log.add('callback', `onError ${error.kind}: ${error.message}`),
    }
  }, [story, state.mode, state.endpoint, state.theme, state.preview, state.labels, log])

  return (
    <div className="pg">
      <nav className="pg-stories" aria-label="Stories">
        <h1>offer-widget</h1>
        <ul>
          {STORIES.map((s) => (
            <li key={s.id}>
              <a
                href={writeState({ ...state, story: s.id })}
                aria-current={s.id === story.id ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault()
                  set({ story: s.id })
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
          <p>{story.description}</p>
          <p className="pg-source">
            {state.mode === 'msw'
              ? `msw scenario "${story.scenario}" in a service worker`
              : `real BFF and sandbox${story.zip ? `, ZIP ${story.zip}` : ' (type any ZIP; 00001–00010 pick a scenario)'}`}
          </p>
        </header>
        <form className="pg-controls" aria-label="Controls" onSubmit={(e) => e.preventDefault()}>
          <label>
            Backend
            <select
              value={state.mode}
              onChange={(e) => set({ mode: e.target.value as PlaygroundState['mode'] })}
            >
              <option value="msw">msw (in the browser)</option>
              <option value="bff">real BFF + sandbox</option>
            </select>
          </label>
          <label>
            Theme
            <select
              value={state.theme ?? ''}
              onChange={(e) => set({ theme: (e.target.value || undefined) as PlaygroundState['theme'] })}
            >
              <option value="">story default</option>
              <option value="light">light</option>
              <option value="dark">dark</option>
            </select>
          </label>
          <label>
            Width (px)
            <input
              type="number"
              min={240}
              max={2000}
              step={10}
              value={state.width ?? story.width ?? ''}
              placeholder="full"
              onChange={(e) => set({ width: e.target.value ? Number(e.target.value) : undefined })}
            />
          </label>
          <label className="pg-check">
            <input
              type="checkbox"
              checked={state.preview}
              onChange={(e) => set({ preview: e.target.checked })}
            />
            Preview mode
          </label>
          <label>
            Endpoint
            <input
              type="text"
              value={state.endpoint}
              placeholder="this origin"
              onChange={(e) => set({ endpoint: e.target.value })}
            />
          </label>
          <label>
            Heading label
            <input
              type="text"
              value={state.labels.heading ?? ''}
              placeholder="Your auto insurance offers"
              onChange={(e) => {
                const labels: Partial<Labels> = { ...state.labels, heading: e.target.value }
                if (!e.target.value) delete labels.heading
                set({ labels })
              }}
            />
          </label>
          <button type="button" onClick={() => setRun((n) => n + 1)}>
            Run again
          </button>
        </form>
        <WidgetPreview
          runKey={runKey}
          prepare={prepare}
          options={options}
          width={state.width ?? story.width}
        />
      </main>
      <EventLog log={log} runKey={runKey} />
    </div>
  )
}
