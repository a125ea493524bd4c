/**
 * @module Counts the preview frame's fetches in flight, so moving the clock can wait for the network the
 * way real time would: a jump of 15 s in one go would fire a poll, then jump past every later one while its
 * answer is still on the way, and the widget would see fewer polls than 15 real seconds give it.
 */

export interface NetworkIdle {
  /** Resolves once no fetch is in flight (or after `capMs` of real time, so a stuck request cannot hang). */
  idle(capMs: number): Promise<void>
}

export function trackFetches(win: Window & typeof globalThis): NetworkIdle {
  const original = win.fetch.bind(win)
  const realSetTimeout = win.setTimeout.bind(win)
  let inFlight = 0
  let waiters: (() => void)[] = []
  const settle = () => {
    if (inFlight > 0) return
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }
  win.fetch = (input, init) => {
    inFlight += 1
    return original(input, init).finally(() => {
      inFlight -= 1
      settle()
    })
  }
  return {
    idle(capMs) {
      if (inFlight === 0) return Promise.resolve()
      return new Promise((resolve) => {
        waiters.push(resolve)
        realSetTimeout(resolve, capMs)
      })
    },
  }
}
