/**
 * @module A promise a test resolves by hand: `const arrived = signal()`, `arrived.resolve()` where the event
 * happens, `await arrived.promise` where the test waits for it (Node 20 has no `Promise.withResolvers`).
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
