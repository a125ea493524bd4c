/**
 * @module The only error the ledger lets out: what failed (SQLSTATE, constraint, table, or the connection
 * error's code) and never the query's parameters. A driver error carries the SQL and every bound value
 * (drizzle's "Failed query ... params: ..."), and a PostgreSQL message may quote a value ("invalid input
 * syntax for type uuid: ..."): partner click URLs, names, a `lead_id` holding an SSN. Whoever logs a
 * ledger error logs this one.
 */

export class LedgerError extends Error {
  override name = 'LedgerError'
  /** SQLSTATE (`23505`) or the connection error's code (`ECONNREFUSED`), when there is one. */
  readonly code: string | undefined

  constructor(message: string, code: string | undefined) {
    super(message)
    this.code = code
  }
}

/** Connection-level codes whose driver message names only a host and port, never a value. */
const CONNECTION_CODE = /^E[A-Z]+$/

export function toLedgerError(error: unknown, operation: string): LedgerError {
  if (error instanceof LedgerError) return error
  // drizzle wraps the driver's error as `cause`; the driver's own error carries the SQLSTATE.
  const driver = (error instanceof Error && error.cause instanceof Error ? error.cause : error) as {
    code?: unknown
    constraint?: unknown
    table?: unknown
    message?: unknown
  }
  const code = typeof driver?.code === 'string' ? driver.code : undefined
  const parts = [`ledger ${operation} failed`]
  if (code !== undefined && CONNECTION_CODE.test(code)) {
    parts.push(`${code}: ${String(driver.message ?? '').slice(0, 200)}`)
  } else if (code !== undefined) {
    parts.push(`SQLSTATE ${code}`)
  } else if (error instanceof Error && !(error.cause instanceof Error) && !('params' in error)) {
    // Our own errors and the drivers' client-side ones ("Connection terminated", a timeout) hold no values.
    parts.push(error.message.slice(0, 200))
  }
  if (typeof driver?.constraint === 'string') parts.push(`constraint ${driver.constraint}`)
  if (typeof driver?.table === 'string') parts.push(`table ${driver.table}`)
  return new LedgerError(parts.join('; '), code)
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
                  throw toLedgerError(error, name)
                })
              : result
          } catch (error) {
            throw toLedgerError(error, name)
          }
        }
        wrapped.set(key, fn)
      }
      return fn
    },
  })
}
