/**
 * @module Public types of the sandbox: what `createSandbox` takes and what it returns.
 */
import type { Hono } from 'hono'
import type { Clock } from '../http/timers.ts'
import type { Faults } from './faults.ts'

/** The bearer tokens the sandbox accepts when none are configured (`SANDBOX_TEST_TOKEN` / `SANDBOX_PRODUCTION_TOKEN`). */
export const SANDBOX_DEFAULT_TOKENS = {
  test: 'sandbox-test-token',
  production: 'sandbox-production-token',
} as const

export interface SandboxOptions {
  /** Accepted bearer tokens per environment; default: `SANDBOX_DEFAULT_TOKENS` below. */
  tokens?: { test: string[]; production: string[] }
  /**
   * Absolute URL at which the sandbox app is reachable (including any mount path), used for pixel, logo
   * and landing URLs. Default: the request's origin plus `basePath`.
   */
  publicBaseUrl?: string
  /** Where the app is mounted, e.g. `/sandbox`. Default: worked out from each request's path. */
  basePath?: string
  /** The clock; `systemTimers` by default (which `vi.useFakeTimers` controls). */
  timers?: Clock
  faults?: Partial<Faults>
  /** Random source in [0, 1); pass `seededRandom(n)` for repeatable ids and faults. */
  random?: () => number
  /** Accepted `Api-Version` values; default `[CURRENT_API_VERSION]`. */
  apiVersions?: string[]
  /** docs/offer-search-api.md Limits: "no more than about once per second per rate table". Default 1000. */
  minPollIntervalMs?: number
  /** Rate tables are forgotten after this long (then 404); default 1 h. */
  rateTableTtlMs?: number
  /** At most this many rate tables are kept; the oldest go first. Default 10 000. */
  maxRateTables?: number
}

export interface Sandbox {
  /** Mount with `app.route('/sandbox', sandbox.app)`, or serve alone. */
  app: Hono
  /** The app's fetch; rejects like a network error when a connection-reset fault fires. */
  fetch(req: Request): Promise<Response>
  setFaults(faults: Partial<Faults>): void
  faults(): Faults
  /** Hits per absolute pixel URL, as requested. */
  pixelHits(): Record<string, number>
  resetPixelHits(): void
  rateTableCount(): number
  /** Forgets every rate table and pixel hit, and clears the faults. */
  reset(): void
}
