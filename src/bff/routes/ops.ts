/**
 * @module Operations endpoints: `/healthz` (the process answers), `/readyz` (200 while the replica can
 * answer: `ready`, or `degraded` naming each dependency that is down and what it costs; 503 only for a
 * dependency named in `?require=`; the checks are Redis when configured, the upstream answering and
 * accepting the token, and every extra check such as the marketplace ledger, remembered for at most 1 s so
 * probes never load them), `/metrics` (Prometheus text, readiness by dependency included).
 */
import { Hono } from 'hono'
import { Gauge, type Registry } from 'prom-client'
import * as z from 'zod/mini'
import { errorResponse } from '../../http/errors.ts'
import { type NotReady, readinessResponse } from '../../http/readiness.ts'
import type { Clock } from '../../http/timers.ts'
import type { BffServices } from '../services.ts'
import { toBffError, UpstreamError } from '../upstream/index.ts'

/** A dependency `/readyz` reports on besides the upstream; `check` rejects when it is unusable. */
export interface ReadinessCheck {
  /** Named in the 503 body, e.g. `ledger`; its code is `<name>_unavailable`. */
  name: 'ledger'
  check(): Promise<void>
}

/** What a failing extra check costs, said in `/readyz`'s message. */
const CHECK_COSTS: Record<ReadinessCheck['name'], string> = {
  ledger: 'second-look leads are refused until it answers; offer searches go on',
}

/** `?require=ledger,redis`: absent is none. */
const requiredSchema = z.pipe(
  z.optional(z.string().check(z.maxLength(200))),
  z.transform((value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
)

// long-function: /healthz, /readyz and /metrics over one readiness cache they share; each handler is short
export function opsRoutes(
  services: BffServices,
  options: { timers: Clock; readyCacheMs?: number; checks?: readonly ReadinessCheck[] },
): Hono {
  const app = new Hono()
  // At most 1 s: probes never load the dependencies, and a cut one shows within a second.
  const readyCacheMs = Math.min(options.readyCacheMs ?? 1000, 1000)
  let last: { at: number; failed: NotReady[] } | undefined
  let checking: Promise<NotReady[]> | undefined

  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }))

  /** Every dependency's check at once, shared by concurrent probes and scrapes, remembered `readyCacheMs`. */
  const evaluate = (): Promise<NotReady[]> => {
    // Answers still flow while Redis is away (per-process fallback), but this replica no longer shares
    // limits and coalescing: the orchestrator should know.
    const redis: NotReady[] =
      services.redisLink && !services.redisLink.available()
        ? [
            {
              dependency: 'redis',
              code: 'redis_unavailable',
              message: 'Redis (REDIS_URL) is unreachable: limits and poll coalescing are per process',
            },
          ]
        : []
    if (last && options.timers.now() - last.at < readyCacheMs)
      return Promise.resolve([...redis, ...last.failed])
    checking ??= Promise.all([
      services.upstream.checkReady().then(
        () => undefined,
        (error: unknown) => {
          const failure = error instanceof UpstreamError ? toBffError(error).getResponse() : undefined
          const code = failure?.status === 502 ? 'upstream_misconfigured' : 'upstream_unavailable'
          return {
            dependency: 'upstream',
            code,
            message: 'The upstream check failed: offer searches fail until it answers',
          } satisfies NotReady
        },
      ),
      ...(options.checks ?? []).map(({ name, check }) =>
        check().then(
          () => undefined,
          (error: unknown): NotReady => ({
            dependency: name,
            code: `${name}_unavailable`,
            message: `${name} check failed (${error instanceof Error ? error.message : 'unknown error'}): ${CHECK_COSTS[name]}`,
          }),
        ),
      ),
    ])
      .then((results) => {
        const failed = results.filter((r) => r !== undefined)
        last = { at: options.timers.now(), failed }
        return failed
      })
      .finally(() => {
        checking = undefined
      })
    return checking.then((failed) => [...redis, ...failed])
  }

  const dependencies = [
    'upstream',
    ...(options.checks ?? []).map((c) => c.name),
    ...(services.redisLink ? ['redis'] : []),
  ]
  app.get('/readyz', async (c) => {
    const required = requiredDependencies(c.req.query('require'), dependencies)
    if (typeof required === 'string') return errorResponse(400, 'validation_failed', required)
    return readinessResponse(await evaluate(), required)
  })
  readinessGauges(services.metrics.registry, dependencies, evaluate)

  app.get('/metrics', async () => {
    try {
      const text = await services.metrics.registry.metrics()
      return new Response(text, {
        headers: { 'content-type': services.metrics.registry.contentType, 'cache-control': 'no-store' },
      })
    } catch {
      return errorResponse(500, 'internal', 'Metrics unavailable')
    }
  })

  return app
}

/** `?require=` as a set of this replica's dependencies, or what is wrong with it. */
function requiredDependencies(
  query: string | undefined,
  dependencies: readonly string[],
): Set<string> | string {
  const required = requiredSchema.safeParse(query)
  if (!required.success) {
    return `require must list dependencies of this replica, comma-separated: ${dependencies.join(', ')}`
  }
  const unknown = required.data.filter((name) => !dependencies.includes(name))
  if (unknown.length > 0) {
    return `require names ${unknown.join(', ')}, not a dependency of this replica; it has ${dependencies.join(', ')}`
  }
  return new Set(required.data)
}

/** Readiness as metrics, evaluated at each scrape through the same cache as the probe. */
function readinessGauges(
  registry: Registry,
  dependencies: readonly string[],
  evaluate: () => Promise<NotReady[]>,
): void {
  new Gauge({
    name: 'bff_dependency_ready',
    help: 'Whether a dependency passes its /readyz check (1) or not (0): upstream, ledger, redis',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const failing = new Set((await evaluate()).map((f) => f.dependency))
      for (const dependency of dependencies) this.set({ dependency }, failing.has(dependency) ? 0 : 1)
    },
  })
  new Gauge({
    name: 'bff_ready',
    help: 'Whether /readyz says ready (1) or degraded, some dependency down (0); degraded is still 200, in rotation',
    registers: [registry],
    async collect() {
      this.set((await evaluate()).length === 0 ? 1 : 0)
    },
  })
}
