/**
 * @module Fake time for ledger and marketplace tests: a @sinonjs/fake-timers clock that is NOT installed on
 * the globals (PGlite, node-postgres and undici keep real timers), injected as the code's `Timers`.
 * `tickAsync` yields a real macrotask between timers, so loopback IO started by one timer can progress.
 */
import { createClock } from '@sinonjs/fake-timers'
import type { Timers } from '../../../src/http/timers.ts'

export interface FakeClock {
  timers: Timers
  now(): number
  /** Advances fake time by `ms`, firing due timers in order. */
  tick(ms: number): Promise<void>
  /**
   * Advances fake time in `stepMs` steps, with a real pause between them for loopback IO (a database, a
   * partner) to answer, until `done` settles or `maxMs` of fake time has passed; returns `done`.
   */
  runUntil<T>(done: Promise<T>, options?: { stepMs?: number; maxMs?: number }): Promise<T>
}

export function createFakeClock(start = Date.parse('2026-03-02T10:00:00.000Z')): FakeClock {
  const clock = createClock(start)
  return {
    timers: {
      now: () => clock.now,
      setTimeout: (callback, ms) => clock.setTimeout(callback, ms),
      clearTimeout: (handle) => clock.clearTimeout(handle as ReturnType<typeof clock.setTimeout>),
    },
    now: () => clock.now,
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
  }
}
