/**
 * @module OpenTelemetry tracing of the BFF, loaded (dynamic `import()`) only when an OTLP endpoint is
 * configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): without one, none of
 * the SDK, the exporter, Hono's middleware or undici's instrumentation is ever imported, and the spans the
 * code opens through `@opentelemetry/api` are no-ops.
 *
 * - One trace per offer search and per second-look lead: the creating request's server span (Hono's
 *   OpenTelemetry middleware), and below it the upstream attempts, ledger writes, partner calls and the
 *   auction. A poll of that search joins the trace as another server span under the creating request,
 *   when this process served the create (a bounded, short-lived map; another replica's poll starts its own).
 * - Outgoing HTTP (upstream, partners) through undici's instrumentation, which sends W3C `traceparent`.
 *   Requests made outside a trace (readiness probes) get no span and no header.
 * - An incoming `traceparent` is honoured only from a trusted proxy (`TRUST_PROXY`): a visitor cannot join
 *   or steer our traces. `tracestate` and baggage are never read, so never sent on (they could carry anything).
 * - Exported over OTLP/HTTP (protobuf, or JSON with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`); headers,
 *   timeout and compression from the standard `OTEL_EXPORTER_OTLP_*` variables, sampling from
 *   `OTEL_TRACES_SAMPLER`, resource attributes from `OTEL_RESOURCE_ATTRIBUTES`.
 * - No query string, token or personal data in any span: URLs lose their query and token segments.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { httpInstrumentationMiddleware } from '@hono/otel'
import {
  context,
  createContextKey,
  type Context as OtelContext,
  propagation,
  type SpanContext,
  SpanKind,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter as OTLPJsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as OTLPProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici'
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions'
import { BFF_ROUTES } from '../contract/bff.ts'
import { packageRoot } from '../http/package-root.ts'
import { systemTimers } from '../http/timers.ts'
import { SEARCH_UUID_ATTRIBUTE, type Tracing } from '../http/trace.ts'
import type { TracingConfig } from './config.ts'

/** This package's version, as `service.version`. */
const SERVICE_VERSION = String(
  (
    JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as {
      version?: unknown
    }
  ).version ?? 'unknown',
)

const TRUSTED_PEER = createContextKey('offer-widget: request from a trusted proxy')

/** W3C trace context, extracted only for a request the gate marked as coming from a trusted proxy. */
class TrustedPeerPropagator implements TextMapPropagator {
  readonly #w3c = new W3CTraceContextPropagator()
  inject(ctx: OtelContext, carrier: unknown, setter: TextMapSetter): void {
    this.#w3c.inject(ctx, carrier, setter)
  }
  extract(ctx: OtelContext, carrier: unknown, getter: TextMapGetter): OtelContext {
    if (ctx.getValue(TRUSTED_PEER) !== true) return ctx
    // `tracestate` is never read: opaque vendor data that a proxy passing a visitor's headers through would let
    // the visitor fill, and that every span and every partner call below would carry on.
    const withoutState: TextMapGetter = {
      keys: (c) => getter.keys(c).filter((key) => key.toLowerCase() !== 'tracestate'),
      get: (c, key) => (key.toLowerCase() === 'tracestate' ? undefined : getter.get(c, key)),
    }
    return this.#w3c.extract(ctx, carrier, withoutState)
  }
  fields(): string[] {
    return this.#w3c.fields()
  }
}

/** Searches created here, by uuid: their polls' parent. At most `MAX` of them, each for `TTL_MS`. */
class SearchTraces {
  static readonly MAX = 10_000
  static readonly TTL_MS = 120_000
  readonly #byUuid = new Map<string, { span: SpanContext; at: number }>()
  remember(uuid: string, span: SpanContext): void {
    this.#byUuid.delete(uuid)
    this.#byUuid.set(uuid, { span, at: systemTimers.now() })
    if (this.#byUuid.size > SearchTraces.MAX) {
      const oldest = this.#byUuid.keys().next().value
      if (oldest !== undefined) this.#byUuid.delete(oldest)
    }
  }
  find(uuid: string): SpanContext | undefined {
    const entry = this.#byUuid.get(uuid.toLowerCase())
    if (entry === undefined) return undefined
    if (systemTimers.now() - entry.at > SearchTraces.TTL_MS) {
      this.#byUuid.delete(uuid.toLowerCase())
      return undefined
    }
    return entry.span
  }
}

/** A token-shaped path segment (click and impression links): long, and not a UUID. */
const TOKEN_SEGMENT = /^(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)[^/]{33,}$/i

/** `url.full` without its query and with token segments masked; `url.query` emptied. */
export function safeUrl(raw: string): string {
  try {
    const url = new URL(raw)
    const path = url.pathname
      .split('/')
      .map((segment) => (TOKEN_SEGMENT.test(segment) ? ':token' : segment))
      .join('/')
    return `${url.protocol}//${url.host}${path}`
  } catch {
    return '[unparsable url]'
  }
}

/** Scrubs URLs as spans start, and remembers which server span created which search as they end. */
class BffSpanProcessor implements SpanProcessor {
  constructor(readonly searches: SearchTraces) {}
  onStart(span: Span): void {
    const full = span.attributes['url.full']
    if (typeof full === 'string') span.setAttribute('url.full', safeUrl(full))
    if (span.attributes['url.query'] !== undefined) span.setAttribute('url.query', '')
  }
  onEnd(span: ReadableSpan): void {
    const uuid = span.attributes[SEARCH_UUID_ATTRIBUTE]
    if (span.kind === SpanKind.SERVER && typeof uuid === 'string') {
      this.searches.remember(uuid, span.spanContext())
    }
  }
  forceFlush(): Promise<void> {
    return Promise.resolve()
  }
  shutdown(): Promise<void> {
    return Promise.resolve()
  }
}

const POLL_PATHS = [BFF_ROUTES.offerSearches, BFF_ROUTES.secondLook].map(
  (route) => new RegExp(`^${route}/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`, 'i'),
)

function pollUuid(path: string): string | undefined {
  for (const pattern of POLL_PATHS) {
    const match = pattern.exec(path)
    if (match) return match[1]
  }
  return undefined
}

export function startTracing(config: TracingConfig): Tracing {
  const exporter =
    config.protocol === 'http/json'
      ? new OTLPJsonExporter({ url: config.tracesUrl })
      : new OTLPProtoExporter({ url: config.tracesUrl })
  const searches = new SearchTraces()
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: SERVICE_VERSION,
    }).merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BffSpanProcessor(searches), new BatchSpanProcessor(exporter)],
  })
  provider.register({ propagator: new TrustedPeerPropagator() })
  const undici = new UndiciInstrumentation({ requireParentforSpans: true })
  undici.setTracerProvider(provider)
  undici.enable()
  const tracer = provider.getTracer('offer-widget-bff')

  return {
    middleware({ trustedPeer }) {
      const serverSpan = httpInstrumentationMiddleware({
        tracer,
        captureActiveRequests: false,
        serviceName: config.serviceName,
        serviceVersion: SERVICE_VERSION,
      })
      return async function traceRequest(c, next) {
        // A `traceparent` is read only when the operator opted in, and then only from a trusted proxy.
        let ctx = context.active().setValue(TRUSTED_PEER, config.trustIncoming && trustedPeer(c))
        const uuid = pollUuid(c.req.path)
        const search = uuid === undefined ? undefined : searches.find(uuid)
        if (search !== undefined) ctx = trace.setSpanContext(ctx, search)
        return context.with(ctx, () => serverSpan(c, next))
      }
    },
    async shutdown() {
      undici.disable()
      await provider.shutdown()
      // The API's globals back to no-ops: a process that starts another server starts clean.
      trace.disable()
      context.disable()
      propagation.disable()
    },
  }
}
