/**
 * @module What lead intake answers when it will not take a lead: the error answer to send, built here so
 * the route only translates it (`bffErrorSchema`).
 */
import type { ErrorCode } from '../../contract/bff.ts'
import type { FieldIssue } from '../../contract/common.ts'

/** Seconds a client waits before sending a lead the ledger could not take: a blip, or a failover. */
const LEDGER_RETRY_AFTER_SECONDS = 2

/** A lead intake will not take, as the error answer to send (`bffErrorSchema`). */
export interface IntakeRefusal {
  kind: 'refused'
  status: 400 | 409 | 500 | 503
  code: ErrorCode
  message: string
  errors?: FieldIssue[]
  /** Sent as `Retry-After` (503 only). */
  retryAfterSeconds?: number
}

export function refuse(
  status: IntakeRefusal['status'],
  code: ErrorCode,
  message: string,
  errors?: FieldIssue[],
): IntakeRefusal {
  return errors
    ? { kind: 'refused', status, code, message, errors }
    : { kind: 'refused', status, code, message }
}

/** The ledger could not take or read the lead: a 503 with `Retry-After`. */
export function unavailable(message: string): IntakeRefusal {
  return {
    kind: 'refused',
    status: 503,
    code: 'upstream_unavailable',
    message,
    retryAfterSeconds: LEDGER_RETRY_AFTER_SECONDS,
  }
}
