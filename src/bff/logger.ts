/**
 * @module The BFF's pino logger: JSON lines, with secrets and personal data redacted wherever they appear
 * in a logged object (a request body must never reach an info line; redaction is the second fence).
 */
import pino from 'pino'

export type Logger = pino.Logger

const SECRET_KEYS = ['authorization', 'Authorization', 'token', 'accessToken', 'x-offer-access-token']
const PII_KEYS = ['ssn', 'dateOfBirth', 'email', 'phone', 'primaryPhone', 'address', 'streetAddress']
const DEPTH = 5

/** `key`, `*.key`, `*.*.key`, ...: pino's wildcards match one level each. */
const REDACT_PATHS = [...SECRET_KEYS, ...PII_KEYS].flatMap((key) => {
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`
  return Array.from({ length: DEPTH }, (_, depth) => {
    const prefix = '*.'.repeat(depth)
    return safe.startsWith('[') ? `${prefix.replace(/\.$/, '')}${safe}` : `${prefix}${safe}`
  })
})

export interface LoggerOptions {
  level?: pino.LevelWithSilentOrString
  /** Where lines go; tests pass a collecting stream. Defaults to stdout. */
  destination?: pino.DestinationStream
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'offer-widget-bff' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ sync: false }),
  )
}
