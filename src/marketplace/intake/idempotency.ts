/**
 * @module `Idempotency-Key` support: the key's accepted shape, and the body's fingerprint. Only an HMAC of
 * the body is stored (never the body, which holds an SSN); keyed so the ledger cannot be used to test
 * guesses of a lead's fields offline.
 */
import { keyedHash, purposeKey } from '../../http/server-secret.ts'

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
/** Printable token characters, as UUIDs and ULIDs are; 200 at most. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,200}$/

export function createBodyHasher(secret: string): (body: unknown) => string {
  const key = purposeKey(secret, 'offer-widget/idempotency-body/v1')
  return (body) => keyedHash(key, canonicalJson(body))
}

/** JSON with object keys sorted, so a retry that reorders keys is the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
