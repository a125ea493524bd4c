/**
 * @module A replica's periodic work, written once for the lease keeper and the retention sweep: a round every
 * `everyMs` on the injected clock, rescheduled after each round ends (never two at once, however slow the
 * ledger), an error logged and retried at the next round (quietly while the ledger is still opening), a timer that never keeps the process alive, and a
 * stop that waits for the round under way.
 */
import type { Logger } from 'pino'
import type { TimerHandle, Timers } from '../http/timers.ts'
import { LedgerError } from '../ledger/ledger-error.ts'

export interface Rounds {
  /** Runs a round now, unless one is under way (then resolves when that one ends). */
  run(): Promise<void>
  stop(): Promise<void>
}

export function startRounds(options: {
  timers: Timers
  everyMs: number
  round: () => Promise<void>
  logger: Pick<Logger, 'warn'>
  /** Logged (with the error) when a round fails. */
  failure: string
}): Rounds {
  const { timers, everyMs } = options
  let timer: TimerHandle | undefined
  let current: Promise<void> | undefined
  let stopped = false

  function run(): Promise<void> {
    current ??= (async () => {
      try {
        await options.round()
      } catch (error) {
        // A ledger still being opened (PGlite at the start) is not a failure: the next round finds it open.
        if (error instanceof LedgerError && error.code === 'opening') return
        options.logger.warn({ err: error }, options.failure)
      } finally {
        current = undefined
      }
    })()
    return current
  }

  function schedule() {
    if (stopped) return
    timer = timers.setTimeout(() => {
      void run().finally(schedule)
    }, everyMs)
    ;(timer as { unref?: () => void } | undefined)?.unref?.()
  }
  schedule()

  return {
    run,
    async stop() {
      stopped = true
      timers.clearTimeout(timer)
      await current
    },
  }
}
