/**
 * @module What the config module (`config.ts`) judges a value by, beside its zod schema: what an error may
 * echo of a value (secrets never, URLs without their credentials), the `PARTNER_*` credentials, and the
 * shapes of `TRUST_PROXY` and `ALLOWED_ORIGINS` entries. It reads no environment: values come in as arguments.
 */
import { safeHttpUrl } from '../contract/http-url.ts'

/** Variables whose value can carry a secret: shown with credentials removed, or not at all. */
const SECRET_VALUES =
  /^(ENGINE_TOKEN|SESSION_SECRET|LEAD_ID_HASH_SECRET|REPORTS_TOKEN|SERVER_API_KEYS|SANDBOX_.*_TOKEN|PARTNER_.*)$/
const URL_VALUES = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
])

/** What a config error may echo of a bad value: URLs without their user and password, secrets never. */
export function shown(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (SECRET_VALUES.test(name)) return '[redacted]'
  if (!URL_VALUES.has(name)) return value
  // A URL that failed to parse may still hold `user:password@`: cut everything up to the last `@`.
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, (_match, scheme = '') => `${scheme}[redacted]@`)
}

/** `PARTNER_<NAME>` variables: the registry names them instead of holding credentials in its file. */
export function partnerSecrets(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (/^PARTNER_[A-Z0-9_]+$/.test(name) && value !== undefined && value !== '') out[name] = value
  }
  return out
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal'])

export function isTrustProxy(value: string): boolean {
  if (/^\d+$/.test(value.trim())) return true
  return value
    .split(',')
    .map((part) => part.trim())
    .every((part) => PROXY_KEYWORDS.has(part) || /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(part))
}

export function isOrigin(value: string): boolean {
  const href = safeHttpUrl(value)
  return href !== undefined && new URL(href).origin === value
}
