/**
 * @module Fault injection settings. Whoever starts the sandbox sets them in code (an option of
 * `createSandbox` and `sandbox.setFaults`), never a request header: a client must not be able to choose
 * how the upstream fails, or tests would pass against behaviour the real service never shows.
 */

export interface Faults {
  /** Added before every API answer, in ms. */
  latencyMs: number
  /** Extra latency drawn uniformly from [0, latencyJitterMs). */
  latencyJitterMs: number
  /** Share of API requests, 0..1, answered 503 / 500 before any other check. */
  errorRate: number
  /** Share of API requests, 0..1, answered 429 with `Retry-After: 1`. */
  rateLimitRate: number
  /** Share of API requests, 0..1, whose connection is dropped without an answer. */
  resetRate: number
}

export const NO_FAULTS: Faults = {
  latencyMs: 0,
  latencyJitterMs: 0,
  errorRate: 0,
  rateLimitRate: 0,
  resetRate: 0,
}

/** Merges a change into the current faults; a bad value throws naming the field, as config does. */
export function mergeFaults(current: Faults, change: Partial<Faults>): Faults {
  const next = { ...current, ...change }
  for (const key of ['latencyMs', 'latencyJitterMs'] as const) {
    if (!Number.isFinite(next[key]) || next[key] < 0) {
      throw new RangeError(`sandbox faults: ${key} must be a finite number of ms >= 0 (got ${next[key]})`)
    }
  }
  for (const key of ['errorRate', 'rateLimitRate', 'resetRate'] as const) {
    if (!(next[key] >= 0 && next[key] <= 1)) {
      throw new RangeError(`sandbox faults: ${key} must be between 0 and 1 (got ${next[key]})`)
    }
  }
  return next
}
