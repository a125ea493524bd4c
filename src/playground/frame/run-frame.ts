/**
 * @module The preview frame's runner: mounts the widget with src/embed's `mount()` (as the script tag does)
 * from the args the playground sends, swaps the msw scenario in msw mode, runs the story's play script,
 * reports requests, pixels, callbacks and play steps to the event log, runs axe-core in the shadow root
 * after every change, moves the clock, and outlines or measures on request (inspect.ts).
 */
import { type EmbedCallback, type EmbedOptions, type MountHandle, mount } from '../../embed/index.ts'
import { describeEvent } from '../describe-event.ts'
import { passThrough, runScenario } from '../mock-worker.ts'
import type { ScenarioName } from '../scenarios/handlers.ts'
import { scenarios } from '../scenarios/handlers.ts'
import type { WidgetArgs } from '../widget-args.ts'
import { checkWidget } from './a11y-check.ts'
import type { FrameClock } from './frame-clock.ts'
import { type FromFrame, type LogKind, type ToFrame, toFrameSchema } from './frame-protocol.ts'
import { createInspector, type Inspector } from './inspect.ts'
import type { NetworkIdle } from './network-idle.ts'
import type { PlayStep } from './play-step.ts'
import { runPlay } from './run-play.ts'

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

/** Starts the frame: its event-log sources, the clock and size reports, and the playground's messages. */
export function runFrame(clock: FrameClock, network: NetworkIdle): void {
  const frame: FrameState = {
    clock,
    settle: () => network.idle(SETTLE_CAP_MS),
    host: document.querySelector(HOST) as HTMLElement,
    handle: null,
    runId: 0,
    runStartedAt: clock.now(),
    searchCreatedAt: null,
    observer: null,
    a11y: { cancel: null, running: false, again: false, changes: 0, suspect: 0 },
    inspector: createInspector(document),
  }
  logResources(frame)
  const callbacks = embedCallbacks(frame)
  startClockLoop(frame)
  const postSize = watchSize(clock)

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
      run(frame, callbacks, message).catch((error: unknown) =>
        log(frame, 'info', `the preview failed: ${String(error)}`),
      )
    else if (message.type === 'update') frame.handle?.update(message.args as WidgetArgs)
    else if (message.type === 'background') setBackground(message.background)
    else if (message.type === 'inspect') frame.inspector.set(message)
    else void time(frame, message.action)
  })
  post({ type: 'ready' })
}

/** What the frame's handlers share: the widget mounted for the current run, and the axe checks' state. */
interface FrameState {
  readonly clock: FrameClock
  /** Waits (bounded) for the answers of the requests in flight. */
  readonly settle: () => Promise<void>
  readonly host: HTMLElement
  handle: MountHandle | null
  /** The playground's id of the current run: log lines and axe results carry it. */
  runId: number
  runStartedAt: number
  /** When the run's search was created, on the frame's clock. */
  searchCreatedAt: number | null
  /** Watches the widget for changes, to run axe after them. */
  observer: MutationObserver | null
  a11y: A11yChecks
  /** Outline and Measure. */
  readonly inspector: Inspector
}

/**
 * axe after every change of the widget, once it has been quiet for a moment; one run at a time. A result
 * is only reported for a widget that held still while axe read it: a card fading in is read at half
 * opacity (a color-contrast failure no visitor sees), so a run that overlapped a change or a fade and
 * found something is run again on the settled widget. Clean results are reported at once.
 */
interface A11yChecks {
  /** Cancels the run scheduled next. */
  cancel: (() => void) | null
  running: boolean
  /** Run once more when the current run ends. */
  again: boolean
  /** Mutations of the widget seen so far: a run compares it before and after. */
  changes: number
  /** Suspect results in a row: a violation that survives this many re-runs is real and is reported. */
  suspect: number
}

const post = (message: FromFrame) => window.parent.postMessage(message, window.location.origin)

/** A line of the current run's event log, timed from the run's start. */
function log(frame: FrameState, kind: LogKind, text: string): void {
  post({ type: 'log', runId: frame.runId, kind, text, at: frame.clock.now() - frame.runStartedAt })
}

/** Requests and pixels from Resource Timing: the same with msw and with the real BFF. */
function logResources(frame: FrameState): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const url = new URL(entry.name)
      const status = entry.responseStatus ? ` → ${entry.responseStatus}` : ''
      if (url.pathname.includes('/pixels/')) log(frame, 'pixel', `${url.pathname}${status}`)
      else if (entry.initiatorType === 'fetch' && url.pathname.includes('/api/'))
        log(frame, 'request', `${url.pathname}${status}`)
    }
  }).observe({ type: 'resource' })
}

/** The widget's callbacks and its events (`onEvent`), each logged; `onSearchCreated` also starts the 15 s window `end` jumps past. */
function embedCallbacks(frame: FrameState): Pick<EmbedOptions, EmbedCallback> {
  return {
    onSearchCreated: (e) => {
      frame.searchCreatedAt = frame.clock.now()
      log(frame, 'callback', `onSearchCreated ${e.source} ${e.uuid}`)
    },
    onOffersShown: (offers) =>
      log(frame, 'callback', `onOffersShown ${offers.map((o) => o.carrierName).join(', ')}`),
    onOfferClick: (offer) => log(frame, 'callback', `onOfferClick ${offer.carrierName} → ${offer.href}`),
    onComplete: (e) =>
      log(frame, 'callback', `onComplete ${e.offerCount} offers${e.incomplete ? ' (incomplete)' : ''}`),
    onError: (error) => log(frame, 'callback', `onError ${error.kind}: ${error.message}`),
    onEvent: (event) => log(frame, 'event', describeEvent(event)),
  }
}

/** Runs axe on the widget now, or again after the run under way; reports the result for the current run. */
async function runA11y(frame: FrameState): Promise<void> {
  const checks = frame.a11y
  if (checks.running) {
    checks.again = true
    return
  }
  checks.running = true
  const id = frame.runId
  try {
    await transitionsEnded(frame)
    const before = checks.changes
    const root = frame.host.shadowRoot?.querySelector<HTMLElement>('.ow-root')
    const state = root?.dataset.owStatus ?? (root ? 'loading' : 'nothing rendered')
    const result = await checkWidget(HOST)
    const moved = checks.changes !== before || transitions(frame.host).length > 0
    if (id !== frame.runId) return
    if (moved && result.violations.length > 0 && checks.suspect < SUSPECT_RERUNS) {
      checks.suspect++
      checks.again = true
      return
    }
    checks.suspect = 0
    post({ type: 'a11y', runId: id, state, ...result })
  } catch (error) {
    post({ type: 'a11y-error', runId: id, message: String(error) })
  } finally {
    checks.running = false
    if (checks.again) {
      checks.again = false
      scheduleA11y(frame)
    }
  }
}

/**
 * The widget's short animations (its FLIP slides and fades, layout-flip.ts) running or waiting to start;
 * not the progress bar's band, which crosses the whole polling window and changes no colour axe reads.
 */
function transitions(host: HTMLElement): Animation[] {
  return (host.shadowRoot?.getAnimations() ?? []).filter((animation) => {
    const end = Number(animation.effect?.getComputedTiming().endTime ?? 0)
    return animation.playState !== 'finished' && end <= ANIMATIONS_WAIT_MS
  })
}

/**
 * Until no short animation runs (a fade that starts meanwhile is waited for too), bounded on the real
 * clock.
 */
async function transitionsEnded({ clock, host }: FrameState): Promise<void> {
  let timedOut = false
  const cancel = clock.realTimeout(() => {
    timedOut = true
  }, ANIMATIONS_WAIT_MS)
  let running = transitions(host)
  while (running.length > 0 && !timedOut) {
    await Promise.race([
      Promise.allSettled(running.map((animation) => animation.finished)),
      new Promise<void>((resolve) => clock.realTimeout(resolve, 100)),
    ])
    running = transitions(host)
  }
  cancel()
}

/** An axe run once the widget has been quiet for `A11Y_SETTLE_MS`, in place of one already scheduled. */
function scheduleA11y(frame: FrameState): void {
  frame.a11y.cancel?.()
  frame.a11y.cancel = frame.clock.realTimeout(() => void runA11y(frame), A11Y_SETTLE_MS)
}

function setBackground(background: string): void {
  document.body.className = `bg-${background}`
}

/** `run`: unmounts the last run's widget, switches the backend (msw scenario or pass-through), mounts it. */
async function run(
  frame: FrameState,
  callbacks: Pick<EmbedOptions, EmbedCallback>,
  message: Extract<ToFrame, { type: 'run' }>,
): Promise<void> {
  frame.runId = message.runId
  const id = frame.runId
  frame.observer?.disconnect()
  frame.handle?.unmount()
  frame.handle = null
  frame.searchCreatedAt = null
  frame.runStartedAt = frame.clock.now()
  setBackground(message.background)
  if (message.mode === 'msw') {
    if (!(message.scenario in scenarios)) throw new Error(`unknown msw scenario ${message.scenario}`)
    await runScenario(message.scenario as ScenarioName)
  } else await passThrough()
  if (id !== frame.runId) return
  frame.handle = mount(frame.host, { ...(message.args as WidgetArgs), ...callbacks })
  if (frame.host.shadowRoot) frame.inspector.attach(frame.host.shadowRoot)
  frame.a11y.suspect = 0
  frame.observer = new MutationObserver(() => {
    frame.a11y.changes++
    scheduleA11y(frame)
  })
  frame.observer.observe(frame.host.shadowRoot as ShadowRoot, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  })
  scheduleA11y(frame)
  if (message.play) void play(frame, message.play)
}

/**
 * The story's play script in the widget's shadow root, on real time (the clock may be paused), each step
 * in the event log; its verdict to the playground. A newer run stops it without one.
 */
async function play(frame: FrameState, steps: readonly PlayStep[]): Promise<void> {
  const id = frame.runId
  const root = frame.host.shadowRoot
  if (!root) return
  const report = (status: 'running' | 'passed' | 'failed', text: string, step: number) =>
    post({ type: 'play', runId: id, status, text, step })
  report('running', `running, ${steps.length} steps`, 1)
  const result = await runPlay(root, steps, {
    wait: (ms) => new Promise((resolve) => frame.clock.realTimeout(resolve, ms)),
    log: (text) => {
      if (id === frame.runId) log(frame, 'play', text)
    },
    current: () => id === frame.runId,
    onStep: (number) => report('running', `running, step ${number} of ${steps.length}`, number),
    // `waitSeconds` follows the frame's clock: a visitor watches the story unfold in real time, and "End of
    // 15 s window" (a person's, or CI's) gets there at once.
    letTimePass: (ms) => {
      const until = frame.clock.now() + ms
      return new Promise<void>((resolve) => {
        const look = () => {
          if (frame.clock.now() >= until || id !== frame.runId) resolve()
          else frame.clock.realTimeout(look, 50)
        }
        look()
      })
    },
  })
  if (result.status === 'passed') report('passed', `passed, ${result.steps} steps`, result.steps)
  else if (result.status === 'failed') report('failed', result.message, result.step)
}

/** `time`: pause, play, a step of one second, or a jump to the end of the search's 15 s window. */
async function time(frame: FrameState, action: Extract<ToFrame, { type: 'time' }>['action']): Promise<void> {
  const { clock } = frame
  if (action === 'pause') {
    clock.pause()
    log(frame, 'info', 'time paused')
  } else if (action === 'play') {
    clock.play()
    log(frame, 'info', 'time running')
  } else if (action === 'step') {
    log(frame, 'info', 'time +1 s')
    await clock.advance(1_000, frame.settle)
  } else if (frame.searchCreatedAt !== null) {
    const ms = Math.max(0, frame.searchCreatedAt + WINDOW_END_MS - clock.now())
    log(frame, 'info', `time +${(ms / 1000).toFixed(1)} s: the end of the 15 s window`)
    await clock.advance(ms, frame.settle)
  }
  postClock(frame)
}

function postClock({ clock, searchCreatedAt }: FrameState): void {
  post({
    type: 'clock',
    paused: clock.paused,
    searchElapsedMs: searchCreatedAt === null ? null : clock.now() - searchCreatedAt,
  })
}

/** The clock to the playground now and every 200 ms of real time. */
function startClockLoop(frame: FrameState): void {
  const clockLoop = () => {
    postClock(frame)
    frame.clock.realTimeout(clockLoop, 200)
  }
  clockLoop()
}

/** Reports the frame's height whenever it changes; returns the report, to send it again on request. */
function watchSize(clock: FrameClock): () => void {
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
  return postSize
}
