/**
 * @module The one `/readyz` answer: `200 { status: 'ready' }`, or `503 { status: 'not_ready', code, message,
 * failing }` naming every dependency that failed its check (the first one's code), never cached. The BFF's
 * checks (upstream, Redis, ledger) and the shutdown drain (`shutting_down`, the same code a request gets once
 * the server closes and a lead gets during the drain) answer through it.
 */
import type { ErrorCode } from '../contract/bff.ts'

/** A dependency that is not usable now, and why; `code` comes from the error registry. */
export interface NotReady {
  /** Named in `failing`, e.g. `ledger`, and by `bff_dependency_ready{dependency}`. */
  dependency: string
  code: ErrorCode
  message: string
}

export function readinessResponse(failures: readonly NotReady[]): Response {
  const headers = { 'cache-control': 'no-store' }
  const [first] = failures
  if (first === undefined) return Response.json({ status: 'ready' }, { headers })
  const body = {
    status: 'not_ready',
    code: first.code,
    message: failures.map((f) => f.message).join('; '),
    failing: failures.map((f) => f.dependency),
  }
  return Response.json(body, { status: 503, headers })
}
