/**
 * @module Shared test wiring for the widget (each test file calls these). msw whose unhandled requests fail
 * the test (`test/support/test-leftovers.ts`), fake timers that leave microtasks alone (msw needs them),
 * RTL cleanup.
 */
import { notifyManager } from '@tanstack/react-query'
import { cleanup } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { act } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { failOnUnhandledRequest } from '../../support/test-leftovers.ts'

// Tells React this is a test environment that wraps updates in act().
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export const ENDPOINT = 'https://bff.offer-widget.test'

// React Query batches observer updates with setTimeout(0). Under fake timers a 0 ms timer set during a
// tick lands 1 ms later, so results would trail the clock by a tick; a microtask keeps them in step.
notifyManager.setScheduler(queueMicrotask)

// RTL's async wrapper (used by user-event) drains with a setTimeout(0) that it only advances when it
// sees Jest's fake timers; this shim lets it advance vitest's instead of waiting forever.
;(globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) }

export const server = setupServer()
const SETTLE_TURNS = 2

/** Registers msw, the fake clock and RTL cleanup around every test in the calling file. */
export function setupWidgetTests(): void {
  // Fake time makes the tests' own durations short; the allowance is for a cold file on a busy shared runner.
  vi.setConfig({ testTimeout: 15_000 })
  beforeAll(() => server.listen({ onUnhandledRequest: failOnUnhandledRequest }))
  beforeEach(() => {
    // Timers and Date are fake; queueMicrotask and nextTick stay real (vitest's default) so msw and
    // fetch can settle inside advanceTimersByTimeAsync.
    vi.useFakeTimers({ shouldAdvanceTime: false })
  })
  afterEach(() => {
    cleanup()
    server.resetHandlers()
    server.events.removeAllListeners()
    vi.useRealTimers()
  })
  afterAll(() => server.close())
}

/** Moves fake time forward by `ms`, letting requests and React updates settle on the way. */
export async function advance(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms)
  })
  // A request sent at the last tick needs a few more turns (msw, body parsing, React) to land.
  for (let i = 0; i < SETTLE_TURNS; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
  }
}

/** Counts requests by method and path suffix, whatever handler answers them. */
export function countRequests(): { count: (method: string, pathEnd: string | RegExp) => number } {
  const seen: { method: string; url: string }[] = []
  server.events.on('request:start', ({ request }) => {
    seen.push({ method: request.method, url: request.url })
  })
  return {
    count: (method, pathEnd) =>
      seen.filter(
        (r) =>
          r.method === method &&
          (typeof pathEnd === 'string' ? new URL(r.url).pathname.endsWith(pathEnd) : pathEnd.test(r.url)),
      ).length,
  }
}

/**
 * Records every `new Image()` until `vi.unstubAllGlobals()`: how a test sees pixel requests without a network.
 * Returns the list the images are pushed into.
 */
export function captureImages(): HTMLImageElement[] {
  const created: HTMLImageElement[] = []
  const RealImage = globalThis.Image
  vi.stubGlobal(
    'Image',
    class extends RealImage {
      constructor() {
        super()
        created.push(this)
      }
    },
  )
  return created
}
