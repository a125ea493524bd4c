/**
 * @module The retention sweep of one replica, in rounds as the lease keeper's (../rounds.ts): every `everyMs` it deletes the consent records older than the retention
 * (`CONSENT_RETENTION_DAYS`, docs/decisions/0105-consent-records.md) and the applicant claims whose duplicate
 * window has ended. Each replica sweeps; a delete is idempotent, so two at once only do the work twice.
 */
import type { Logger } from 'pino'
import type { Timers } from '../../http/timers.ts'
import type { Ledger } from '../../ledger/index.ts'
import { startRounds } from '../rounds.ts'

/** An hour: records are kept for years, so an hour late is nothing, and the delete is one indexed range. */
const RETENTION_SWEEP_EVERY_MS = 60 * 60 * 1000

export interface RetentionSweepDeps {
  ledger: Pick<Ledger, 'purgeExpired'>
  /** How long a consent record is kept after its lead was made. */
  retentionMs: number
  timers: Timers
  logger: Pick<Logger, 'info' | 'warn'>
  everyMs?: number
}

export interface RetentionSweep {
  /** Runs a round now (tests, and a first round at start), unless one is under way. */
  run(): Promise<void>
  stop(): Promise<void>
}

export function startRetentionSweep(deps: RetentionSweepDeps): RetentionSweep {
  const { timers } = deps
  const everyMs = deps.everyMs ?? RETENTION_SWEEP_EVERY_MS
  return startRounds({
    timers,
    everyMs,
    logger: deps.logger,
    failure: 'second-look retention sweep failed; the next one retries',
    async round() {
      const now = timers.now()
      const purged = await deps.ledger.purgeExpired({
        consentBefore: new Date(now - deps.retentionMs),
        now: new Date(now),
      })
      if (Object.values(purged).some((n) => n > 0)) {
        deps.logger.info(
          purged,
          'second-look retention sweep: expired consent records, claims and held applications deleted',
        )
      }
    },
  })
}
