/**
 * @module A ledger that is being opened: the server binds its port at once and opens the embedded ledger
 * beside it, so nothing is created or loaded on the path a lead waits on. Until the open has finished,
 * `ping` (readiness) fails at once saying so, and a call waits for the open at most `timeoutMs` before failing
 * with the same transient `LedgerError` as a database that does not answer (the lead route's 503 with
 * Retry-After). A failed open is retried with backoff; calls meanwhile fail at once.
 */
import { type BackoffPolicy, backoffDelay } from '../contract/backoff.ts'
import type { TimerHandle, Timers } from '../http/timers.ts'
import type { LedgerDb } from './ledger-db.ts'
import { LedgerError, toLedgerError, withTimeout } from './ledger-error.ts'
import type { Ledger } from './ledger-store.ts'

/** 1 s, 2 s, 4 s... up to 30 s between attempts: a full disk or a read-only volume takes an operator. */
const OPEN_RETRY: BackoffPolicy = { baseDelayMs: 1_000, maxDelayMs: 30_000 }

export interface OpenInBackgroundOptions {
  driver: Ledger['driver']
  timeoutMs: number
  timers: Timers
  /** Told of each failed open, and when the next attempt starts. */
  onOpenError?: ((error: LedgerError, retryInMs: number) => void) | undefined
}

type State =
  | { kind: 'opening'; attempt: Promise<Ledger> }
  | { kind: 'open'; ledger: Ledger }
  | { kind: 'failed'; error: LedgerError }
  | { kind: 'closed' }

// long-function: a ledger that stands in while the real one opens: every method reads one opening state (opening, open, failed, closed) and its retry timer
export function openInBackground(open: () => Promise<Ledger>, options: OpenInBackgroundOptions): Ledger {
  const { timers, timeoutMs } = options
  let state!: State
  let failures = 0
  let retry: TimerHandle | undefined

  const start = () => {
    retry = undefined
    const attempt = Promise.resolve().then(open)
    state = { kind: 'opening', attempt }
    attempt.then(
      (ledger) => {
        // Closed meanwhile: `close` closes it.
        if (state.kind === 'closed') return
        failures = 0
        state = { kind: 'open', ledger }
      },
      (error: unknown) => {
        if (state.kind === 'closed') return
        const failure = toLedgerError('open', error)
        const delay = backoffDelay(failures++, OPEN_RETRY)
        state = { kind: 'failed', error: failure }
        retry = timers.setTimeout(start, delay)
        options.onOpenError?.(failure, delay)
      },
    )
  }

  /** Runs `call` on the open ledger; while it opens, the wait and the call together take at most `timeoutMs`. */
  const run = <T>(operation: string, call: (ledger: Ledger) => Promise<T>): Promise<T> => {
    const now = state
    switch (now.kind) {
      case 'open':
        return call(now.ledger)
      case 'closed':
        return Promise.reject(new LedgerError(operation, 'closed', false))
      case 'failed':
        return Promise.reject(notOpen(operation, now.error))
      case 'opening':
        return withTimeout(timers, timeoutMs, operation, async () => {
          const ledger = await now.attempt.catch((error: unknown) => {
            throw notOpen(operation, toLedgerError('open', error))
          })
          return call(ledger)
        })
    }
  }

  start()
  return {
    driver: options.driver,
    timeoutMs,
    get db(): LedgerDb {
      if (state.kind === 'open') return state.ledger.db
      throw new Error('ledger.db: the ledger is still opening; wait until ledger.ping() resolves')
    },
    createLead: (lead, requests) => run('createLead', (l) => l.createLead(lead, requests)),
    recordReply: (reply) => run('recordReply', (l) => l.recordReply(reply)),
    closeTier: (replies, next, leadId) => run('closeTier', (l) => l.closeTier(replies, next, leadId)),
    getSearch: (searchUuid) => run('getSearch', (l) => l.getSearch(searchUuid)),
    findOffer: (offerId) => run('findOffer', (l) => l.findOffer(offerId)),
    recordClick: (click) => run('recordClick', (l) => l.recordClick(click)),
    partnerReport: (query) => run('partnerReport', (l) => l.partnerReport(query)),
    ping: () => {
      // Readiness does not wait: it says the ledger is not open yet, and why.
      if (state.kind === 'opening') {
        return Promise.reject(new LedgerError('ping', 'opening', true, 'the ledger is still being opened'))
      }
      return run('ping', (l) => l.ping())
    },
    withdrawLead: (leadId, at, reason) => run('withdrawLead', (l) => l.withdrawLead(leadId, at, reason)),
    renewLeases: (owner, leadIds, until) => run('renewLeases', (l) => l.renewLeases(owner, leadIds, until)),
    claimLeads: (claim) => run('claimLeads', (l) => l.claimLeads(claim)),
    recordImpression: (impression) => run('recordImpression', (l) => l.recordImpression(impression)),
    recordConversion: (conversion) => run('recordConversion', (l) => l.recordConversion(conversion)),
    firstSentAt: (ref) => run('firstSentAt', (l) => l.firstSentAt(ref)),
    suppressionList: (query) => run('suppressionList', (l) => l.suppressionList(query)),
    consentRecord: (query) => run('consentRecord', (l) => l.consentRecord(query)),
    purgeExpired: (expiry) => run('purgeExpired', (l) => l.purgeExpired(expiry)),
    ...applicantCalls(run),
    ...placementCalls(run),
    async close() {
      const was = state
      state = { kind: 'closed' }
      if (retry !== undefined) timers.clearTimeout(retry)
      if (was.kind === 'open') await was.ledger.close()
      // An open still running: what it opens is closed when it ends; shutdown waits for that a while.
      if (was.kind === 'opening') {
        const closing = was.attempt.then((l) => l.close())
        await withTimeout(timers, timeoutMs, 'close', () => closing).catch(() => {})
      }
    },
  }
}

/** The open failed: transient (it is retried), and naming why. */
function notOpen(operation: string, cause: LedgerError): LedgerError {
  return new LedgerError(operation, 'not_open', true, `the ledger could not be opened: ${cause.message}`)
}

/** The calls on applicants who applied before (duplicates, held applications), waiting for the open too. */
function applicantCalls(
  run: <T>(operation: string, call: (ledger: Ledger) => Promise<T>) => Promise<T>,
): Pick<
  Ledger,
  | 'recordDuplicate'
  | 'duplicatesReport'
  | 'recordHeldApplication'
  | 'heldApplications'
  | 'releaseHeldApplication'
> {
  return {
    recordDuplicate: (duplicate) => run('recordDuplicate', (l) => l.recordDuplicate(duplicate)),
    duplicatesReport: (range) => run('duplicatesReport', (l) => l.duplicatesReport(range)),
    recordHeldApplication: (held) => run('recordHeldApplication', (l) => l.recordHeldApplication(held)),
    heldApplications: (query) => run('heldApplications', (l) => l.heldApplications(query)),
    releaseHeldApplication: (id, at) =>
      run('releaseHeldApplication', (l) => l.releaseHeldApplication(id, at)),
  }
}

/** The placements calls (docs/placements.md), waiting for the open like every other call. */
function placementCalls(
  run: <T>(operation: string, call: (ledger: Ledger) => Promise<T>) => Promise<T>,
): Pick<Ledger, 'recordSearchEvents' | 'placementsReport'> {
  return {
    recordSearchEvents: (events) => run('recordSearchEvents', (l) => l.recordSearchEvents(events)),
    placementsReport: (query) => run('placementsReport', (l) => l.placementsReport(query)),
  }
}
