/**
 * @module Middleware that applies the configured faults to API requests: latency, connection reset,
 * 5xx and 429, in that order, each decided by the injected random source.
 */
import type { MiddlewareHandler } from 'hono'
import { retryAfterHeader } from '../../http/errors.ts'
import { sleepOn, systemTimers } from '../../http/timers.ts'
import { ConnectionResetError, upstreamError } from '../errors.ts'
import type { Faults } from '../faults.ts'
import type { Random } from '../random.ts'

interface NodeBindings {
  incoming?: { socket?: { destroy(): void } }
}

export interface InjectFaultsOptions {
  faults: () => Faults
  random: Random
}

export function injectFaults({ faults, random }: InjectFaultsOptions): MiddlewareHandler {
  return async function injectFaultsMiddleware(c, next) {
    const f = faults()
    const delay = f.latencyMs + (f.latencyJitterMs > 0 ? random() * f.latencyJitterMs : 0)
    // Global setTimeout on purpose: vi.useFakeTimers() controls it in tests.
    if (delay > 0) await sleepOn(systemTimers, delay)
    if (f.resetRate > 0 && random() < f.resetRate) {
      // On Node the socket is reachable through @hono/node-server's bindings; in-process it is not,
      // and the thrown error makes the fetch promise reject like a network failure.
      ;(c.env as NodeBindings | undefined)?.incoming?.socket?.destroy()
      throw new ConnectionResetError()
    }
    if (f.errorRate > 0 && random() < f.errorRate) {
      const status = random() < 0.5 ? 503 : 500
      throw upstreamError(status, [
        {
          field: '(service)',
          reason: 'injected fault: transient server error; retry with exponential backoff',
        },
      ])
    }
    if (f.rateLimitRate > 0 && random() < f.rateLimitRate) {
      throw upstreamError(
        429,
        [{ field: '(service)', reason: 'injected fault: too many requests; honor Retry-After' }],
        retryAfterHeader(1),
      )
    }
    await next()
  }
}
