/**
 * @module Replays what a page queued through the snippet before the bundle arrived, in order, against the
 * real API. A queued `mount` stand-in handle is rebound to the real handle, so calls made on it later go
 * straight through.
 */
import type { MountHandle } from './options.ts'

export type QueueEntry = [method: string, args: unknown[], handle?: Partial<MountHandle>]

export interface QueueTarget {
  mount(...args: never[]): MountHandle
  mountAll(...args: never[]): unknown
  unmount(...args: never[]): unknown
  ready(...args: never[]): unknown
}

export function replayQueue(queue: readonly QueueEntry[], api: QueueTarget): void {
  const real = new Map<object, MountHandle>()
  for (const entry of queue) {
    const [method, args, stub] = entry
    try {
      if (stub && method === 'mount') {
        const handle = api.mount(...(args as never[]))
        real.set(stub, handle)
        stub.update = handle.update
        stub.unmount = handle.unmount
      } else if (stub && (method === 'update' || method === 'unmount')) {
        const handle = real.get(stub)
        if (method === 'update') handle?.update(...(args as [never]))
        else handle?.unmount()
      } else if (method === 'mountAll' || method === 'unmount' || method === 'ready') {
        api[method](...(args as never[]))
      } else {
        console.warn(`offer-widget: unknown queued command "${method}" ignored`)
      }
    } catch (error) {
      console.error(`offer-widget: queued ${method}() failed:`, error)
    }
  }
}
