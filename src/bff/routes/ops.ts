/**
 * @module Operations endpoints: `/healthz` (the process answers), `/readyz` (Redis, when configured, is
 * reachable; the upstream answers and accepts the token; every extra check passes, e.g. the marketplace
 * ledger; remembered for at most 1 s so probes never load them), `/metrics` (Prometheus text).
 */
import { Hono } from 'hono'
import { errorResponse } from '../errors.ts'
import type { BffKit } from '../kit.ts'
import { toBffError, UpstreamError } from '../upstream/index.ts'

/** A dependency `/readyz` reports on besides the upstream; `check` rejects when it is unusable. */
export interface ReadinessCheck {
  /** Named in the 503 body, e.g. `ledger`. */
  name: string
  check(): Promise<void>
}

export function opsRoutes(
  kit: BffKit,
  options: { now: () => number; readyCacheMs?: number; checks?: readonly ReadinessCheck[] },
): Hono {
  const app = new Hono()
  // At most 1 s: probes never load the dependencies, and a cut one shows within a second.
  const readyCacheMs = Math.min(options.readyCacheMs ?? 1000, 1000)
  let last: { at: number; response: () => Response } | undefined
  let checking: Promise<() => Response> | undefined

  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }))

  app.get('/readyz', async () => {
    // Answers still flow while Redis is away (per-process fallback), but this replica no longer shares
    // limits and coalescing: the orchestrator should know.
    if (kit.redisLink && !kit.redisLink.available()) {
      const body = {
        status: 'not_ready',
        code: 'redis_unavailable',
        message: 'Redis (REDIS_URL) is unreachable: limits and poll coalescing are per process',
      }
      return Response.json(body, { status: 503, headers: { 'cache-control': 'no-store' } })
    }
    if (last && options.now() - last.at < readyCacheMs) return last.response()
    checking ??= Promise.all([
      kit.upstream.checkReady().then(
        () => undefined,
        (error: unknown) => {
          const failure = error instanceof UpstreamError ? toBffError(error).getResponse() : undefined
          const code = failure?.status === 502 ? 'upstream_misconfigured' : 'upstream_unavailable'
          return { name: 'upstream', code, message: 'Upstream check failed' }
        },
      ),
      ...(options.checks ?? []).map(({ name, check }) =>
        check().then(
          () => undefined,
          (error: unknown) => ({
            name,
            code: `${name}_unavailable`,
            message: `${name} check failed: ${error instanceof Error ? error.message : 'unknown error'}`,
          }),
        ),
      ),
    ])
      .then((results): (() => Response) => {
        const failed = results.filter((r) => r !== undefined)
        const headers = { 'cache-control': 'no-store' }
        const [first] = failed
        if (first === undefined) return () => Response.json({ status: 'ready' }, { headers })
        const body = {
          status: 'not_ready',
          code: first.code,
          message: failed.map((f) => f.message).join('; '),
          failing: failed.map((f) => f.name),
        }
        return () => Response.json(body, { status: 503, headers })
      })
      .then((response) => {
        last = { at: options.now(), response }
        return response
      })
      .finally(() => {
        checking = undefined
      })
    return (await checking)()
  })

  app.get('/metrics', async () => {
    try {
      const text = await kit.metrics.registry.metrics()
      return new Response(text, {
        headers: { 'content-type': kit.metrics.registry.contentType, 'cache-control': 'no-store' },
      })
    } catch {
      return errorResponse(500, 'internal', 'Metrics unavailable')
    }
  })

  return app
}
