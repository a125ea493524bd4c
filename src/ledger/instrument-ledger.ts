/**
 * @module The ledger as operators see it: every database call timed into `ledger_call_duration_seconds`,
 * failures counted by operation and driver code in `ledger_call_failures_total`, and each call a client
 * span (`ledger <operation>`) in the trace of the search or lead it serves. Nothing of a call's arguments
 * or rows reaches a label or attribute: the operation name and the error code only.
 */
import { Counter, Histogram, type Registry } from 'prom-client'
import { inSpan, inTrace, type Span, SpanKind } from '../http/trace.ts'
import { LedgerError } from './ledger-error.ts'
import type { Ledger } from './ledger-store.ts'
import { SEARCH_EVENTS_OVERFLOW } from './search-event-queue.ts'

/** The calls instrumented: every one that reaches the database. */
const OPERATIONS = [
  'createLead',
  'recordReply',
  'closeTier',
  'getSearch',
  'findOffer',
  'recordClick',
  'partnerReport',
  'ping',
  'withdrawLead',
  'renewLeases',
  'claimLeads',
  'recordImpression',
  'recordConversion',
  'firstSentAt',
  'suppressionList',
  'consentRecord',
  'purgeExpired',
  'recordDuplicate',
  'duplicatesReport',
  'recordHeldApplication',
  'heldApplications',
  'releaseHeldApplication',
  'recordSearchEvents',
  'placementsReport',
] as const satisfies ReadonlyArray<keyof Ledger>

type Operation = (typeof OPERATIONS)[number]

/**
 * A SQLSTATE, a socket errno, `timeout`, or the search-event queue's `overflow` (an event refused before it
 * reached the database, which the ledger-failure alert leaves out); anything else is `other`.
 */
function failureCode(error: unknown): string {
  if (!(error instanceof LedgerError)) return 'other'
  if (error.code === SEARCH_EVENTS_OVERFLOW) return error.code
  return /^([0-9A-Z]{5}|E[A-Z]{2,20}|timeout)$/.test(error.code) ? error.code : 'other'
}

export function instrumentLedger(ledger: Ledger, registry: Registry): Ledger {
  const duration = new Histogram({
    name: 'ledger_call_duration_seconds',
    help: 'Time of one ledger (database) call, by operation, failures included',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  const failures = new Counter({
    name: 'ledger_call_failures_total',
    help: 'Ledger calls that failed, by operation and driver code (SQLSTATE, socket error or timeout), or overflow (a full search-event queue)',
    labelNames: ['operation', 'code'] as const,
    registers: [registry],
  })
  const attributes = { 'db.system.name': ledger.driver === 'pglite' ? 'pglite' : 'postgresql' }
  const instrumented: Partial<Record<Operation, unknown>> = {}
  for (const operation of OPERATIONS) {
    duration.zero({ operation })
    const call = ledger[operation] as (...args: unknown[]) => Promise<unknown>
    const timed = async (args: unknown[], span?: Span) => {
      const stop = duration.startTimer({ operation })
      try {
        return await call.apply(ledger, args)
      } catch (error) {
        const code = failureCode(error)
        failures.labels({ operation, code }).inc()
        span?.setAttribute('db.response.status_code', code)
        throw error
      } finally {
        stop()
      }
    }
    // A span only inside a request's or lead's trace: probes (`ping`) and the lease keeper's background
    // rounds (`renewLeases`, `claimLeads`, every second) are timed but start no trace of their own.
    instrumented[operation] = (...args: unknown[]) =>
      !inTrace()
        ? timed(args)
        : inSpan(
            `ledger ${operation}`,
            { ...attributes, 'db.operation.name': operation },
            (span) => timed(args, span),
            SpanKind.CLIENT,
          )
  }
  // Getters and `close` pass through to the ledger itself.
  return new Proxy(ledger, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in instrumented) return instrumented[key as Operation]
      return Reflect.get(target, key, receiver)
    },
  })
}
