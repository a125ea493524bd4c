/**
 * @module The preview frame's clock: @sinonjs/fake-timers installed on the frame's window before the
 * widget loads, so the widget's polling timers, its 15 s window and the msw fake BFF's partner timings all
 * read one clock the playground can pause, step and jump. While running it follows real time; while paused
 * timers due "now" still run (React, msw and axe-core schedule zero-delay work), nothing later does.
 */
import { type Clock, withGlobal } from '@sinonjs/fake-timers'

export interface FrameClock {
  readonly paused: boolean
  now(): number
  pause(): void
  play(): void
  /**
   * Advances fake time by `ms` in short steps, running every timer due on the way and, after each step,
   * waiting (in real time) for `settle()`: the requests those timers sent get their answers before time
   * moves on, as they would in real time.
   */
  advance(ms: number, settle: () => Promise<void>): Promise<void>
  /** Real-time callbacks (not driven by the fake clock), for the playground's own bookkeeping. */
  realTimeout(callback: () => void, ms: number): () => void
}

/** The step an advance moves in before letting the network catch up (fake ms). */
const STEP_MS = 100

/** How often the clock catches up with real time while running (ms of real time). */
const TICK_MS = 16

export function installFrameClock(win: Window & typeof globalThis): FrameClock {
  // Kept before install: the ticker and the playground's own timers must not run on the clock they drive.
  const realSetInterval = win.setInterval.bind(win)
  const realSetTimeout = win.setTimeout.bind(win)
  const realClearTimeout = win.clearTimeout.bind(win)
  const realNow = () => win.performance.now()
  const clock: Clock = withGlobal(win).install({
    now: win.Date.now(),
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  })
  let paused = false
  let busy = false
  let holding = false
  let last = realNow()
  realSetInterval(() => {
    const at = realNow()
    const elapsed = at - last
    last = at
    // Inside tickAsync the advance owns the clock; ticking beside it would run timers out of order. While
    // it waits for the network, time holds still but work due now still runs (msw answering, React).
    if (busy) return
    clock.tick(paused || holding ? 0 : elapsed)
  }, TICK_MS)
  return {
    get paused() {
      return paused
    },
    now: () => clock.now,
    pause() {
      paused = true
    },
    play() {
      paused = false
      last = realNow()
    },
    async advance(ms, settle) {
      holding = true
      try {
        for (let left = ms; left > 0; left -= STEP_MS) {
          busy = true
          await clock.tickAsync(Math.min(STEP_MS, left))
          busy = false
          await settle()
        }
      } finally {
        busy = false
        holding = false
        last = realNow()
      }
    },
    realTimeout(callback, ms) {
      const id = realSetTimeout(callback, ms)
      return () => realClearTimeout(id)
    },
  }
}
