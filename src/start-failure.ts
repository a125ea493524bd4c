/**
 * @module What the server says when it cannot serve: a request before the app is built or after shutdown
 * began gets a 503 whose code says which (`starting` / `shutting_down`, not an upstream failure), and a
 * start that fails ends with ONE structured log line naming the variable and the fix, not a bare stack.
 */
import { errorResponse } from './http/errors.ts'

/** The answer to a request that arrives while the app is not built yet, or is closing. */
export function notServingResponse(closing: boolean): Response {
  const options = { retryAfterSeconds: 1, headers: { connection: 'close' } }
  return closing
    ? errorResponse(503, 'shutting_down', 'Server is shutting down: retry after Retry-After', options)
    : errorResponse(503, 'starting', 'Server is starting: retry after Retry-After', options)
}

/** Error codes of a PostgreSQL server that cannot be reached or refuses the credentials or database. */
const POSTGRES_CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
  '28P01', // invalid_password
  '28000', // invalid_authorization_specification
  '3D000', // invalid_catalog_name: the database does not exist
])

function codesOf(error: unknown): string[] {
  const codes: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Object; depth++) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown }
    if (typeof code === 'string') codes.push(code)
    // AggregateError: `connect` tried IPv4 and IPv6 and both failed.
    if (Array.isArray(errors)) for (const inner of errors) codes.push(...codesOf(inner))
    current = cause
  }
  return codes
}

/**
 * The one JSON line a failed start prints: `variable` and `fix` when the cause is known (PostgreSQL at
 * `DATABASE_URL`), else the error's message. Never the URL itself: it may carry a password.
 */
export function startFailureLine(error: unknown, context: { databaseUrl?: string | undefined }): string {
  const codes = codesOf(error)
  const reason = error instanceof Error ? error.message : String(error)
  const database = context.databaseUrl !== undefined && codes.some((code) => POSTGRES_CONNECT_CODES.has(code))
  const line = database
    ? {
        level: 'fatal',
        msg: 'cannot start: PostgreSQL at DATABASE_URL is unreachable or refused the connection',
        code: codes.find((code) => POSTGRES_CONNECT_CODES.has(code)),
        variable: 'DATABASE_URL',
        fix: 'start PostgreSQL or correct host, port, user, password and database in DATABASE_URL; unset it to use the built-in PGlite ledger',
        reason,
      }
    : { level: 'fatal', msg: `cannot start: ${reason}`, code: codes[0] }
  return JSON.stringify({ time: new Date().toISOString(), ...line })
}
