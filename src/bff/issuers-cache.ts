/**
 * @module The issuers list, cached in process: fresh for an hour, then served stale while one background
 * refresh runs; a failed refresh keeps the last good list (and waits a little before trying again), so an
 * upstream blip never empties the carrier picker.
 */
import type { Issuer } from '../contract/offer-search.ts'
import { type Clock, systemTimers } from '../http/timers.ts'
import type { Logger } from './logger.ts'

export interface IssuersCache {
  get(): Promise<Issuer[]>
}

export interface IssuersCacheOptions {
  load: () => Promise<Issuer[]>
  logger: Logger
  /** The clock; `systemTimers` by default. */
  timers?: Clock
  freshMs?: number
  /** After a failed refresh, the stale list is served this long before the next attempt. */
  retryAfterFailureMs?: number
}

export function createIssuersCache(options: IssuersCacheOptions): IssuersCache {
  const timers = options.timers ?? systemTimers
  const now = () => timers.now()
  const freshMs = options.freshMs ?? 60 * 60 * 1000
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 30_000
  let value: Issuer[] | undefined
  let loadedAt = 0
  let failedAt = Number.NEGATIVE_INFINITY
  let loading: Promise<Issuer[]> | undefined

  function load(): Promise<Issuer[]> {
    loading ??= options
      .load()
      .then((issuers) => {
        value = issuers
        loadedAt = now()
        return issuers
      })
      .finally(() => {
        loading = undefined
      })
    return loading
  }

  return {
    async get() {
      // Nothing to serve yet: the caller waits, and a failure is its error.
      if (value === undefined) return load()
      const t = now()
      if (t - loadedAt >= freshMs && loading === undefined && t - failedAt >= retryAfterFailureMs) {
        load().catch((error: unknown) => {
          failedAt = now()
          options.logger.warn({ err: error }, 'issuers refresh failed; serving the last good list')
        })
      }
      return value
    },
  }
}
