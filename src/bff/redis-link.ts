/**
 * @module The BFF's Redis connection and whether it can be used right now. Redis is shared state, not a
 * dependency of answering: while it is away, limits and poll coalescing run per process. So a command must
 * never wait on a reconnect (no offline queue, no per-request retry, a short command timeout), and once a
 * command fails or times out every caller skips Redis until a heartbeat `PING` answers again. The state is
 * logged once per change, with a reminder while it lasts, never per request.
 */
import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'
import { type Clock, systemTimers } from '../http/timers.ts'
import type { Logger } from './logger.ts'

// ioredis is loaded only when a client is made (REDIS_URL): with its dependencies it keeps about 8 MB resident
// that the embedded default, one process without Redis, would never use. It is CommonJS, so `require` loads it
// synchronously and `connectRedis` stays synchronous. The `require` is made on that first call too, not when
// the module loads: a workers runtime (workerd) has no `import.meta.url` to make it from.
let requireModule: NodeJS.Require | undefined

export interface RedisLink {
  client: Redis
  /** True while Redis is connected and answered its last command or heartbeat: callers may use it. */
  available(): boolean
  /** A command failed: callers skip Redis until the next heartbeat answers. */
  failed(error: unknown): void
  /** Stops the heartbeat and reminder; quits the client when this link opened it. */
  close(): Promise<void>
}

/** Runs `task` every `ms`; returns the cancel. Injected in tests, which tick it by hand. */
export type Every = (task: () => void, ms: number) => () => void

export const every: Every = (task, ms) => {
  const timer = setInterval(task, ms)
  timer.unref()
  return () => clearInterval(timer)
}

export interface RedisLinkOptions {
  logger: Logger
  /** Heartbeat `PING` period: how soon a recovered Redis is used again. */
  heartbeatMs?: number
  /** While Redis stays unavailable, a reminder is logged this often. */
  reminderMs?: number
  every?: Every
  /** The clock; `systemTimers` by default. */
  timers?: Clock
}

/** Client options for a Redis that fails fast: a command on a broken connection errors at once. */
function redisClientOptions(commandTimeoutMs = 500) {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    // A partitioned Redis (connected, silent) costs one timeout, then the link routes around it.
    commandTimeout: commandTimeoutMs,
    enableAutoPipelining: true,
    // Reconnect in the background, never faster than every 2 s once it keeps failing.
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
  }
}

/** Opens a client on `url` and watches it. */
export function connectRedis(url: string, options: RedisLinkOptions): RedisLink {
  requireModule ??= createRequire(import.meta.url)
  const { Redis: RedisClient } = requireModule('ioredis') as typeof import('ioredis')
  const client = new RedisClient(url, redisClientOptions())
  return watchRedis(client, { ...options, owned: true })
}

/** Watches a client made elsewhere (tests, replicas sharing one client). */
// long-function: one connection's state (up or down, since when, the reminder) shared by its event handlers, heartbeat and close; each is a few lines, and apart they would pass that state around
export function watchRedis(client: Redis, options: RedisLinkOptions & { owned?: boolean }): RedisLink {
  const { logger } = options
  const schedule = options.every ?? every
  const timers = options.timers ?? systemTimers
  const now = () => timers.now()
  const reminderMs = options.reminderMs ?? 60_000
  let healthy = false
  // Unknown until the first ready or failure: a starting process says nothing until it knows.
  let reported: 'up' | 'down' | undefined
  let downSince = 0
  let lastReason = ''
  let stopReminder: (() => void) | undefined

  function set(up: boolean, reason: string) {
    healthy = up
    if (up) {
      if (reported === 'down') {
        logger.info(
          { downForMs: now() - downSince },
          'redis available again (REDIS_URL): limits and poll coalescing shared across replicas',
        )
      }
      reported = 'up'
      stopReminder?.()
      stopReminder = undefined
      return
    }
    lastReason = reason
    if (reported === 'down') return
    reported = 'down'
    downSince = now()
    logger.warn(
      { reason },
      'redis unavailable (REDIS_URL): limits and poll coalescing now per process until it answers again',
    )
    stopReminder = schedule(() => {
      logger.warn(
        { reason: lastReason, downForMs: now() - downSince },
        'redis still unavailable (REDIS_URL): limits and poll coalescing are per process',
      )
    }, reminderMs)
  }

  const onReady = () => set(true, '')
  const onClose = () => set(false, 'connection closed')
  // ioredis emits an error per failed reconnect; the state change above is the one log line.
  const onError = (error: Error) => {
    if (client.status !== 'ready') set(false, describe(error))
  }
  client.on('ready', onReady)
  client.on('close', onClose)
  client.on('end', onClose)
  client.on('error', onError)
  if (client.status === 'ready') healthy = true

  let probing = false
  const stopHeartbeat = schedule(() => {
    if (probing || client.status !== 'ready') return
    probing = true
    client.ping().then(
      () => {
        probing = false
        if (!healthy) set(true, '')
      },
      (error: unknown) => {
        probing = false
        set(false, describe(error))
      },
    )
  }, options.heartbeatMs ?? 1000)

  return {
    client,
    available: () => healthy && client.status === 'ready',
    failed(error) {
      set(false, describe(error))
    },
    async close() {
      stopHeartbeat()
      stopReminder?.()
      client.off('ready', onReady)
      client.off('close', onClose)
      client.off('end', onClose)
      client.off('error', onError)
      // A listener must stay: an 'error' with none would crash the process while quitting.
      client.on('error', () => {})
      if (options.owned) await client.quit().catch(() => client.disconnect())
    },
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200)
}
