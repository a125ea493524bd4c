/**
 * @module The preview frame's runner: mounts the widget with src/embed's `mount()` (as the script tag does)
 * from the args the playground sends, swaps the msw scenario in msw mode, reports requests, pixels and
 * callbacks to the event log, runs axe-core in the shadow root after every change, and moves the clock.
 */
import { type EmbedCallback, type EmbedOptions, type MountHandle, mount } from '../../embed/index.ts'
import { passThrough, runScenario } from '../mock-worker.ts'
import type { ScenarioName } from '../scenarios/handlers.ts'
import { scenarios } from '../scenarios/handlers.ts'
import type { WidgetArgs } from '../widget-args.ts'
import { checkWidget } from './a11y-check.ts'
import type { FrameClock } from './frame-clock.ts'
import { type FromFrame, type LogKind, type ToFrame, toFrameSchema } from './frame-protocol.ts'
import type { NetworkIdle } from './network-idle.ts'

const HOST = '#widget'
/** docs/offer-search-api.md: a search is polled for at most 15 s; "the end" is just past it, so the last poll has landed. */
const WINDOW_END_MS = 15_000 + 1_000
/** Real ms axe waits at most for the widget's running animations (fades, slides) to end. */
const ANIMATIONS_WAIT_MS = 2000
/** Real ms of quiet after a change before axe runs, so a burst of renders is checked once. */
const A11Y_SETTLE_MS = 250
/** Runs in a row whose violations were found while the widget moved before they are reported anyway. */
const SUSPECT_RERUNS = 5

/** Real ms an advance waits at most for the answers of one step's requests. */
const SETTLE_CAP_MS = 3_000

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the playground frame's message loop, one handler per message kind; to be split (issue 34, left)
export function runFrame(clock: FrameClock, network: NetworkIdle): void {
  const settle = () => network.idle(SETTLE_CAP_MS)
  const host = document.querySelector(HOST) as HTMLElement
  let handle: MountHandle | null = null
  let runId = 0
  let runStartedAt = clock.now()
  let searchCreatedAt: number | null = null
  let observer: MutationObserver | null = null

  const post = (message: FromFrame) => window.parent.postMessage(message, window.location.origin)
  const log = (kind: LogKind, text: string) =>
    post({ type: 'log', runId, kind, text, at: clock.now() - runStartedAt })

  // Requests and pixels from Resource Timing: the same with msw and with the real BFF.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const url = new URL(entry.name)
      const status = entry.responseStatus ? ` → ${entry.responseStatus}` : ''
      if (url.pathname.includes('/pixels/')) log('pixel', `${url.pathname}${status}`)
      else if (entry.initiatorType === 'fetch' && url.pathname.includes('/api/'))
        log('request', `${url.pathname}${status}`)
    }
  }).observe({ type: 'resource' })

  const callbacks: Pick<EmbedOptions, EmbedCallback> = {
    onSearchCreated: (e) => {
      searchCreatedAt = clock.now()
      log('callback', `onSearchCreated ${e.source} ${e.uuid}`)
    },
    onOffersShown: (offers) =>
      log('callback', `onOffersShown ${offers.map((o) => o.carrierName).join(', ')}`),
    onOfferClick: (offer) => log('callback', `onOfferClick ${offer.carrierName} → ${offer.href}`),
    onComplete: (e) =>
      log('callback', `onComplete ${e.offerCount} offers${e.incomplete ? ' (incomplete)' : ''}`),
    onError: (error) => log('callback', `onError ${error.kind}: ${error.message}`),
  }

  // axe after every change of the widget, once it has been quiet for a moment; one run at a time. A result
  // is only reported for a widget that held still while axe read it: a card fading in is read at half
  // opacity (a color-contrast failure no visitor sees), so a run that overlapped a change or a fade and
  // found something is run again on the settled widget. Clean results are reported at once.
  let a11yTimer: (() => void) | null = null
  let a11yRunning = false
  let a11yAgain = false
  /** Mutations of the widget seen so far: a run compares it before and after. */
  let changes = 0
  /** Suspect results in a row: a violation that survives this many re-runs is real and is reported. */
  let suspect = 0
  const runA11y = async () => {
    if (a11yRunning) {
      a11yAgain = true
      return
    }
    a11yRunning = true
    const id = runId
    try {
      await transitionsEnded()
      const before = changes
      const root = host.shadowRoot?.querySelector<HTMLElement>('.ow-root')
      const state = root?.dataset.owStatus ?? (root ? 'loading' : 'nothing rendered')
      const result = await checkWidget(HOST)
      const moved = changes !== before || transitions().length > 0
      if (id !== runId) return
      if (moved && result.violations.length > 0 && suspect < SUSPECT_RERUNS) {
        suspect++
        a11yAgain = true
        return
      }
      suspect = 0
      post({ type: 'a11y', runId: id, state, ...result })
    } catch (error) {
      post({ type: 'a11y-error', runId: id, message: String(error) })
    } finally {
      a11yRunning = false
      if (a11yAgain) {
        a11yAgain = false
        scheduleA11y()
      }
    }
  }
  /**
   * The widget's short animations (its FLIP slides and fades, layout-flip.ts) running or waiting to start;
   * not the progress bar's band, which crosses the whole polling window and changes no colour axe reads.
   */
  const transitions = () =>
    (host.shadowRoot?.getAnimations() ?? []).filter((animation) => {
      const end = Number(animation.effect?.getComputedTiming().endTime ?? 0)
      return animation.playState !== 'finished' && end <= ANIMATIONS_WAIT_MS
    })
  /** Until no short animation runs (a fade that starts meanwhile is waited for too), bounded on the real clock. */
  const transitionsEnded = async () => {
    let timedOut = false
    const cancel = clock.realTimeout(() => {
      timedOut = true
    }, ANIMATIONS_WAIT_MS)
    let running = transitions()
    while (running.length > 0 && !timedOut) {
      await Promise.race([
        Promise.allSettled(running.map((animation) => animation.finished)),
        new Promise<void>((resolve) => clock.realTimeout(resolve, 100)),
      ])
      running = transitions()
    }
    cancel()
  }
  const scheduleA11y = () => {
    a11yTimer?.()
    a11yTimer = clock.realTimeout(() => void runA11y(), A11Y_SETTLE_MS)
  }

  const setBackground = (background: string) => {
    document.body.className = `bg-${background}`
  }

  const run = async (message: Extract<ToFrame, { type: 'run' }>) => {
    runId = message.runId
    const id = runId
    observer?.disconnect()
    handle?.unmount()
    handle = null
    searchCreatedAt = null
    runStartedAt = clock.now()
    setBackground(message.background)
    if (message.mode === 'msw') {
      if (!(message.scenario in scenarios)) throw new Error(`unknown msw scenario ${message.scenario}`)
      await runScenario(message.scenario as ScenarioName)
    } else await passThrough()
    if (id !== runId) return
    handle = mount(host, { ...(message.args as WidgetArgs), ...callbacks })
    suspect = 0
    observer = new MutationObserver(() => {
      changes++
      scheduleA11y()
    })
    observer.observe(host.shadowRoot as ShadowRoot, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    })
    scheduleA11y()
  }

  const time = async (action: 'pause' | 'play' | 'step' | 'end') => {
    if (action === 'pause') {
      clock.pause()
      log('info', 'time paused')
    } else if (action === 'play') {
      clock.play()
      log('info', 'time running')
    } else if (action === 'step') {
      log('info', 'time +1 s')
      await clock.advance(1_000, settle)
    } else if (searchCreatedAt !== null) {
      const ms = Math.max(0, searchCreatedAt + WINDOW_END_MS - clock.now())
      log('info', `time +${(ms / 1000).toFixed(1)} s: the end of the 15 s window`)
      await clock.advance(ms, settle)
    }
    postClock()
  }

  const postClock = () =>
    post({
      type: 'clock',
      paused: clock.paused,
      searchElapsedMs: searchCreatedAt === null ? null : clock.now() - searchCreatedAt,
    })
  const clockLoop = () => {
    postClock()
    clock.realTimeout(clockLoop, 200)
  }
  clockLoop()

  // The body's own height: the document's scroll height never drops below the frame's current height.
  const postSize = () => post({ type: 'size', height: Math.ceil(document.body.offsetHeight) })
  // Posted from a task of the frame's own, not from the observer's callback: WebKit runs that callback
  // with the top page as the incumbent, so its message arrives with `event.source` set to the playground's
  // window, which the playground ignores (in WebKit the frame stayed 480 px tall, the widget cut off).
  let sizeQueued = false
  new ResizeObserver(() => {
    if (sizeQueued) return
    sizeQueued = true
    clock.realTimeout(() => {
      sizeQueued = false
      postSize()
    }, 0)
  }).observe(document.body)

  window.addEventListener('message', (event) => {
    if (event.origin !== window.location.origin || event.source !== window.parent) return
    const parsed = toFrameSchema.safeParse(event.data)
    if (!parsed.success) return
    const message = parsed.data
    if (message.type === 'hello') {
      // The playground was not listening yet: it missed the height as well.
      post({ type: 'ready' })
      postSize()
    } else if (message.type === 'run')
      run(message).catch((error: unknown) => log('info', `the preview failed: ${String(error)}`))
    else if (message.type === 'update') handle?.update(message.args as WidgetArgs)
    else if (message.type === 'background') setBackground(message.background)
    else void time(message.action)
  })
  post({ type: 'ready' })
}
