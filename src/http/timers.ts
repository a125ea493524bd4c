/**
 * @module The clock and timers of the server (the ledger, the marketplace, the partner kit's checker),
 * injected rather than read from globals (as TanStack query-core's `timeoutManager` does), so tests drive
 * windows, retries and timeouts on fake time. `systemTimers` is the real one. It imports nothing, so any
 * server module can use it without reaching into another's layer.
 */

/** Whatever the provider's `setTimeout` returns; only its own `clearTimeout` reads it. */
export type TimerHandle = unknown

export interface Timers {
  now(): number
  setTimeout(callback: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
}

/** What a module that only reads the time takes, as its `timers` option: any `Timers` will do. */
export type Clock = Pick<Timers, 'now'>

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
}

/** Resolves after `ms` on the given timers, or as soon as `signal` aborts. */
export function sleepOn(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const wake = () => {
      timers.clearTimeout(handle)
      signal?.removeEventListener('abort', wake)
      resolve()
    }
    const handle = timers.setTimeout(wake, ms)
    signal?.addEventListener('abort', wake, { once: true })
  })
}
