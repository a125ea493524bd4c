/**
 * @module Promises in tests. `signal()`: one a test resolves by hand (`arrived.resolve()` where the event
 * happens, `await arrived.promise` where the test waits; Node 20 has no `Promise.withResolvers`).
 * `watch(promise)`: whether it has settled yet, to check that nothing ends before its instant.
 */
export interface Signal {
  promise: Promise<void>
  resolve(): void
}

export function signal(): Signal {
  let resolve: () => void = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

/** `promise`, and whether it has settled yet: to check that nothing ends before the clock reaches its instant. */
export function watch<T>(promise: Promise<T>): { promise: Promise<T>; settled(): boolean } {
  let settled = false
  const watched = promise.finally(() => {
    settled = true
  })
  // The caller awaits `promise`; the watcher's own branch must not report its rejection a second time.
  watched.catch(() => {})
  return { promise, settled: () => settled }
}
