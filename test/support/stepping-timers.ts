/**
 * @module Fake time that moves only when the code under test waits: a `Timers` whose clock stands still
 * until a timer fires, and then jumps to that timer's instant. A timer fires on the next turn of the event
 * loop, so loopback IO (an upstream, Redis) runs on real time in between while no test waits for real.
 * Every delay asked for is recorded in `waits`; `advance` moves the clock by hand.
 */
import type { Timers } from '../../src/http/timers.ts'

export interface SteppingTimers {
  timers: Timers
  /** The delays asked of `setTimeout`, in order (cleared ones included). */
  waits: number[]
  now(): number
  advance(ms: number): void
}

export function steppingTimers(start = 0): SteppingTimers {
  let time = start
  const waits: number[] = []
  return {
    timers: {
      now: () => time,
      setTimeout(callback, ms) {
        waits.push(ms)
        const due = time + ms
        return setImmediate(() => {
          time = Math.max(time, due)
          callback()
        })
      },
      clearTimeout: (handle) => clearImmediate(handle as ReturnType<typeof setImmediate>),
    },
    waits,
    now: () => time,
    advance(ms) {
      time += ms
    },
  }
}
