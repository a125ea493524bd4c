/**
 * @module What the server says when it cannot serve: a request before the app is built or after shutdown
 * began gets a 503 whose code says which (`starting` / `shutting_down`, not an upstream failure), and a
 * start that fails ends with ONE structured log line naming the variable and the fix, not a bare stack
 * (PostgreSQL at DATABASE_URL unreachable; PORT taken by another process, or HOST not an address here).
 */
import { errorResponse } from '../http/errors.ts'
import { redactedUrl } from './config-values.ts'

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

/** What the start was asked to do: the database (when set) and where to listen. */
interface StartContext {
  databaseUrl?: string | undefined
  port?: number
  host?: string
}

/** A listen that failed (`syscall: 'listen'`): the port is taken, privileged, or HOST is not this machine's. */
function listenFailure(error: unknown, { port, host }: StartContext) {
  const { code, syscall } = (error instanceof Object ? error : {}) as { code?: unknown; syscall?: unknown }
  if (syscall !== 'listen' || typeof code !== 'string') return undefined
  const other = port === undefined || port >= 65535 ? 8788 : port + 1
  const where = `port ${port} on ${host}`
  if (code === 'EADDRINUSE')
    return {
      msg: `cannot start: ${where} is already in use by another process`,
      variable: 'PORT',
      fix: `stop the other process on port ${port}, or choose a free port: PORT=${other} npm start`,
    }
  if (code === 'EACCES')
    return {
      msg: `cannot start: no permission to listen on ${where}`,
      variable: 'PORT',
      fix: 'use a port above 1023 (PORT=8787 npm start) and a proxy or port mapping in front for 80 and 443',
    }
  if (code === 'EADDRNOTAVAIL')
    return {
      msg: `cannot start: HOST ${host} is not an address of this machine`,
      variable: 'HOST',
      fix: 'set HOST to 127.0.0.1 (this machine only) or 0.0.0.0 (every interface, as in a container)',
    }
  return undefined
}

/** An error's message with every URL in it redacted (`redactedUrl`): a driver may quote DATABASE_URL. */
function withoutCredentials(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, (url) => redactedUrl(url) ?? '[URL not shown]')
}

/**
 * The one JSON line a failed start prints: `variable` and `fix` when the cause is known (PostgreSQL at
 * `DATABASE_URL`, PORT or HOST), else the error's message. Never the URL itself: it may carry a password.
 */
export function startFailureLine(error: unknown, context: StartContext): string {
  const codes = codesOf(error)
  const reason = withoutCredentials(error instanceof Error ? error.message : String(error))
  const listen = listenFailure(error, context)
  const database = context.databaseUrl !== undefined && codes.some((code) => POSTGRES_CONNECT_CODES.has(code))
  const line = listen
    ? { level: 'fatal', ...listen, code: codes[0], reason }
    : database
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
