/**
 * @module The one `/readyz` answer. A replica that can answer stays in rotation: a dependency that is down
 * (the upstream, the ledger, Redis) costs one capability, not the replica, and every replica shares it, so
 * draining them all would only turn a partial outage into a whole one. So `/readyz` answers 200 with
 * `status: 'ready'`, or 200 with `status: 'degraded'` naming what is down (`failing`, the first one's
 * `code`, and what each costs in `message`); 503 `not_ready` only for the replica's own state (shutting
 * down: `shutting_down`) or for a dependency the caller named in `?require=` (a load balancer that routes
 * leads to a pool of their own may require `ledger`). Never cached.
 */
import type { ErrorCode } from '../contract/bff.ts'

/** A dependency that is not usable now, and why; `code` comes from the error registry. */
export interface NotReady {
  /** Named in `failing`, e.g. `ledger`, and by `bff_dependency_ready{dependency}`. */
  dependency: string
  code: ErrorCode
  message: string
}

/** 503 `not_ready`: the replica itself is not taking traffic (shutting down), or a required dependency failed. */
export function notReadyResponse(failures: readonly [NotReady, ...NotReady[]]): Response {
  return Response.json(readinessBody('not_ready', failures), { status: 503, headers: NO_STORE })
}

/**
 * The answer for `failures`: 200 ready or degraded, unless one of them is a dependency in `required`
 * (then 503 naming every failure).
 */
export function readinessResponse(
  failures: readonly NotReady[],
  required: ReadonlySet<string> = NONE,
): Response {
  const [first] = failures
  if (first === undefined) return Response.json({ status: 'ready' }, { headers: NO_STORE })
  if (failures.some((f) => required.has(f.dependency))) return notReadyResponse([first, ...failures.slice(1)])
  return Response.json(readinessBody('degraded', failures), { headers: NO_STORE })
}

const NO_STORE = { 'cache-control': 'no-store' }
const NONE: ReadonlySet<string> = new Set()

function readinessBody(status: 'degraded' | 'not_ready', failures: readonly NotReady[]) {
  return {
    status,
    code: failures[0]?.code,
    message: failures.map((f) => f.message).join('; '),
    failing: failures.map((f) => f.dependency),
  }
}
