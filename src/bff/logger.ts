/**
 * @module The BFF's pino logger: JSON lines, with secrets and personal data redacted wherever they appear
 * in a logged object (a request body must never reach an info line; redaction is the second fence), and the
 * `trace_id` of the line's request or lead when tracing is on.
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api'
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

/**
 * `trace_id` and `span_id` of the request or lead the line belongs to, when tracing is on (docs/operating.md):
 * a log line leads to its trace and back. Nothing without a recorded span.
 */
function traceFields(): Record<string, string> {
  const span = trace.getSpan(context.active())
  if (span === undefined) return {}
  const { traceId, spanId } = span.spanContext()
  return isSpanContextValid(span.spanContext()) ? { trace_id: traceId, span_id: spanId } : {}
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'offer-widget-bff' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      mixin: traceFields,
    },
    options.destination ?? pino.destination({ sync: false }),
  )
}
