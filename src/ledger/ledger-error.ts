/**
 * @module The one error the ledger throws, and the timeout every database call runs under. Its message
 * names the operation and the driver's error code, never the statement or its parameters: those hold
 * partner click URLs, names and whatever a partner put in `lead_id` (an SSN, once), and errors are logged.
 */
import type { Timers } from '../http/timers.ts'

export class LedgerError extends Error {
  override name = 'LedgerError'
  /** The driver's code: a SQLSTATE (`23505`), a socket error (`ECONNREFUSED`), or `timeout`. */
  readonly code: string
  /** True when the database could not be reached or did not answer in time: worth retrying. */
  readonly transient: boolean
  constructor(operation: string, code: string, transient: boolean, detail = '') {
    super(`ledger ${operation} failed: ${code}${detail ? ` (${detail})` : ''}`)
    this.code = code
    this.transient = transient
  }
}

/** SQLSTATE classes and socket errors that mean "the database is away", not "the statement is wrong". */
const TRANSIENT = /^(08|53|57|58|40)|^E(CONN|PIPE|HOSTUNREACH|NETUNREACH|TIMEDOUT|AI_AGAIN)/

/** Turns whatever a driver threw into a `LedgerError` that carries no part of the statement. */
export function toLedgerError(operation: string, error: unknown): LedgerError {
  if (error instanceof LedgerError) return error
  const code = codeOf(error) ?? codeOf((error as { cause?: unknown } | undefined)?.cause)
  if (code !== undefined) return new LedgerError(operation, code, TRANSIENT.test(code))
  // node-postgres reports a dropped connection without a code; its messages carry no data.
  const message = messageOf(error) ?? messageOf((error as { cause?: unknown } | undefined)?.cause) ?? ''
  if (/connection|terminat|timeout|closed/i.test(message)) {
    return new LedgerError(operation, 'connection', true, message.slice(0, 120))
  }
  return new LedgerError(operation, error instanceof Error ? error.name : 'unknown', false)
}

/** Runs one database call under `ms`; past it the caller gets a transient `LedgerError` (`timeout`). */
export function withTimeout<T>(
  timers: Timers,
  ms: number,
  operation: string,
  run: () => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false
    const timer = timers.setTimeout(() => {
      if (done) return
      done = true
      reject(new LedgerError(operation, 'timeout', true, `no answer within ${ms} ms`))
    }, ms)
    run().then(
      (value) => {
        if (done) return
        done = true
        timers.clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        if (done) return
        done = true
        timers.clearTimeout(timer)
        reject(toLedgerError(operation, error))
      },
    )
  })
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && code !== '' ? code : undefined
}

/** Only node-postgres's own connection messages are kept; a database error's message can quote a value. */
function messageOf(error: unknown): string | undefined {
  if (!(error instanceof Error) || (error as { severity?: unknown }).severity !== undefined) return undefined
  return error.message.startsWith('Failed query') ? undefined : error.message
}

/**
 * The same object with every method's failure turned into a {@link LedgerError}, thrown or rejected (a
 * proxy, so getters and properties added later read through). The method's name says what failed.
 */
export function withLedgerErrors<T extends object>(target: T): T {
  const wrapped = new Map<PropertyKey, unknown>()
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver)
      if (typeof value !== 'function') return value
      let fn = wrapped.get(key)
      if (fn === undefined) {
        const name = String(key)
        fn = (...args: unknown[]) => {
          try {
            const result = Reflect.apply(value, object, args)
            return result instanceof Promise
              ? result.catch((error: unknown) => {
                  throw toLedgerError(name, error)
                })
              : result
          } catch (error) {
            throw toLedgerError(name, error)
          }
        }
        wrapped.set(key, fn)
      }
      return fn
    },
  })
}
