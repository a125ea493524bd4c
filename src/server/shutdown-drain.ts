/**
 * @module The server's shutdown drain for the second look (docs/operating.md#shutdown): on
 * SIGTERM the listener stays open while leads are in flight, so their widgets keep polling and see the
 * offers that settle during the drain; `/readyz` answers 503 `shutting_down` so the load balancer sends new
 * traffic elsewhere, and intake refuses new leads (503, `Retry-After: 1`). The drain ends when every lead in
 * flight has settled and been written (or `MARKETPLACE_DRAIN_TIMEOUT_MS` has cut their partner calls), plus
 * a short linger for the pollers' next poll to read the final state; only then does the listener close.
 */
import { notReadyResponse } from '../http/readiness.ts'
import { systemTimers, type Timers } from '../http/timers.ts'

/**
 * After the last lead settles: a widget polls once a second and a poll may read a snapshot up to a second
 * old (the poll cache), so two and a half seconds let every poller read the settled result once.
 */
const SETTLED_LINGER_MS = 2_500

interface DrainTarget {
  /** Leads running in this process. */
  readonly inFlight: number
  /** Refuses new leads, lets leads in flight finish (bounded), resolves once they are written. */
  drain(): Promise<void>
}

export interface ShutdownDrain {
  /** True from the start of the drain. */
  readonly draining: boolean
  /** The answer to a request during the drain when it is not the app's (`/readyz`), else undefined. */
  intercept(request: Request): Response | undefined
  /** Starts the drain; resolves when the listener may close. Idempotent. */
  run(target: DrainTarget | undefined): Promise<void>
}

export function createShutdownDrain(options: { lingerMs?: number; timers?: Timers } = {}): ShutdownDrain {
  const lingerMs = options.lingerMs ?? SETTLED_LINGER_MS
  const timers = options.timers ?? systemTimers
  let draining = false
  let done: Promise<void> | undefined
  return {
    get draining() {
      return draining
    },
    intercept(request) {
      if (!draining || new URL(request.url).pathname !== '/readyz') return undefined
      return notReadyResponse([
        {
          dependency: 'shutdown',
          code: 'shutting_down',
          message: 'Shutting down: second-look leads in flight are finishing; send new traffic elsewhere',
        },
      ])
    },
    run(target) {
      draining = true
      done ??= (async () => {
        if (target === undefined) return
        const hadLeads = target.inFlight > 0
        await target.drain()
        if (hadLeads && lingerMs > 0) {
          await new Promise<void>((resolve) => timers.setTimeout(resolve, lingerMs))
        }
      })()
      return done
    },
  }
}
