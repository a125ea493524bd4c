/**
 * @module Operations endpoints: `/healthz` (the process answers), `/readyz` (Redis, when configured, is
 * reachable, and the upstream answers and accepts the token; remembered for a few seconds so probes never
 * load it), `/metrics` (Prometheus text).
 */
import { Hono } from 'hono'
import { errorResponse } from '../errors.ts'
import type { BffKit } from '../kit.ts'
import { toBffError, UpstreamError } from '../upstream.ts'

export function opsRoutes(kit: BffKit, options: { now: () => number; readyCacheMs?: number }): Hono {
  const app = new Hono()
  const readyCacheMs = options.readyCacheMs ?? 5000
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
    checking ??= kit.upstream
      .checkReady()
      .then(
        () => () => Response.json({ status: 'ready' }, { headers: { 'cache-control': 'no-store' } }),
        (error: unknown) => {
          const failure = error instanceof UpstreamError ? toBffError(error).getResponse() : undefined
          const body = { status: 'not_ready', code: 'upstream_unavailable', message: 'Upstream check failed' }
          if (failure?.status === 502) body.code = 'upstream_misconfigured'
          return () => Response.json(body, { status: 503, headers: { 'cache-control': 'no-store' } })
        },
      )
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
