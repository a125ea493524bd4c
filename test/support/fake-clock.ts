/**
 * @module Fake time for server code, injected as its `Timers` (src/http/timers.ts): a @sinonjs/fake-timers
 * clock that is NOT installed on the globals (PGlite, node-postgres, undici and the loopback servers keep
 * real timers). It moves in one of two ways:
 *
 * - by the test (the default): `tick(ms)` fires the timers that come due, in order, and yields a real
 *   macrotask between them (fake-timers' `tickAsync`), so loopback IO started by one timer can progress;
 *   `runUntil` ticks in steps, with a real pause between them, until a promise settles;
 * - by the code (`stepping: true`): the clock stands still until a timer fires, and then jumps to that
 *   timer's instant. Each timer fires on the next turn of the real event loop (a `setImmediate`), so loopback
 *   IO (an upstream, Redis) runs on real time in between, while no test waits for real and none ticks.
 *
 * Stepping timers do not enter fake-timers' queue, which fires timers in the order they come due and only
 * when ticked, and cannot fire one of them without those due before it; a stepping timer fires in the order
 * it was asked for, on its own turn of the loop, and `advance` moves the clock past it without firing it.
 * Both ways share the clock's reading, `waits` and `advance`.
 */
import { createClock } from '@sinonjs/fake-timers'
import type { Timers } from '../../src/http/timers.ts'

export interface FakeClock {
  timers: Timers
  now(): number
  /** Every delay asked of `timers.setTimeout`, in order (cleared ones included). */
  waits: number[]
  /** Advances fake time by `ms`, firing due timers in order. */
  tick(ms: number): Promise<void>
  /**
   * Advances fake time in `stepMs` steps, with a real pause between them for loopback IO (a database, a
   * partner) to answer, until `done` settles or `maxMs` of fake time has passed; returns `done`.
   */
  runUntil<T>(done: Promise<T>, options?: { stepMs?: number; maxMs?: number }): Promise<T>
  /**
   * Moves the clock by `ms` at once, as time spent elsewhere (an attempt, an upstream's latency). Timers that
   * come due meanwhile fire now, in order; stepping timers fire on their own turn, without moving it back.
   */
  advance(ms: number): void
}

export interface FakeClockOptions {
  /** Epoch ms the clock starts at. */
  start?: number
  /** Time moves when a timer fires, to that timer's instant, on the next turn of the event loop. */
  stepping?: boolean
}

export function createFakeClock({
  start = Date.parse('2026-03-02T10:00:00.000Z'),
  stepping = false,
}: FakeClockOptions = {}): FakeClock {
  const clock = createClock(start)
  const waits: number[] = []
  // In stepping mode fake-timers' queue stays empty, so setting the time fires and shifts nothing; unlike
  // `tick`, it keeps fractions of a millisecond as they were asked for.
  const moveTo = (instant: number) => clock.setSystemTime(instant)
  const timers: Timers = stepping
    ? {
        now: () => clock.now,
        setTimeout(callback, ms) {
          waits.push(ms)
          const due = clock.now + ms
          return setImmediate(() => {
            if (due > clock.now) moveTo(due)
            callback()
          })
        },
        clearTimeout: (handle) => clearImmediate(handle as ReturnType<typeof setImmediate>),
      }
    : {
        now: () => clock.now,
        setTimeout(callback, ms) {
          waits.push(ms)
          return clock.setTimeout(callback, ms)
        },
        clearTimeout: (handle) => clock.clearTimeout(handle as ReturnType<typeof clock.setTimeout>),
      }
  return {
    timers,
    now: () => clock.now,
    waits,
    async tick(ms) {
      await clock.tickAsync(ms)
    },
    async runUntil(done, { stepMs = 100, maxMs = 120_000 } = {}) {
      let settled = false
      const watched = done.finally(() => {
        settled = true
      })
      // Handled by the caller once returned; not "unhandled" while the clock is still being advanced.
      watched.catch(() => {})
      const until = clock.now + maxMs
      while (!settled && clock.now < until) {
        await clock.tickAsync(stepMs)
        // A real pause: IO completes on real time, not on this clock.
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      return watched
    },
    advance(ms) {
      if (stepping) moveTo(clock.now + ms)
      else clock.tick(ms)
    },
  }
}
