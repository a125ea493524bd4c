/**
 * @module Deterministic `lead_id`: the same lead sent twice gets the same id, so retries and duplicate
 * sends land on one record. An HMAC with a per-partner secret over stable lead fields: the id reveals
 * nothing of the lead (no SSN, email or phone, even by brute force over the 10^9 SSNs, without the secret).
 */
import { createHmac } from 'node:crypto'

const LEAD_ID_PREFIX = 'ref_'

function field(value: unknown, ...path: string[]): unknown {
  let current = value
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

/**
 * Stable identity of a lead: who (SSN digits, date of birth, email, ZIP) and what (purpose, amount). Session
 * information is left out on purpose: the same application resent from another IP is the same lead.
 * Anything that is not a lead object (a body that is not JSON) is identified by its raw text.
 */
function stableFields(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(['raw', input])
  const ssn = field(input, 'personalInformation', 'ssn')
  const email = field(input, 'personalInformation', 'email')
  return JSON.stringify([
    typeof ssn === 'string' ? ssn.replace(/\D/g, '') : ssn,
    field(input, 'personalInformation', 'dateOfBirth'),
    typeof email === 'string' ? email.trim().toLowerCase() : email,
    field(input, 'personalInformation', 'zipcode'),
    field(input, 'loanInformation', 'purpose'),
    field(input, 'loanInformation', 'loanAmount'),
  ])
}

/** `ref_` plus 22 base64url characters (128 bits of HMAC-SHA-256). */
export function deriveLeadId(input: unknown, secret: string): string {
  const digest = createHmac('sha256', secret).update(stableFields(input)).digest()
  return LEAD_ID_PREFIX + digest.subarray(0, 16).toString('base64url')
}
