/**
 * @module The BFF's OpenTelemetry tracer and one way to run work in a span. Only `@opentelemetry/api` is
 * imported here: without an SDK registered (tracing is off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set, see
 * `src/server/start-tracing.ts`) every span is the API's no-op span, so instrumented code pays a function call.
 *
 * Spans never carry a request or reply body, a token or personal data: attributes are ids, names from
 * the registry, counts, statuses and durations. An error is recorded by its type, never its message.
 */
import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { Context, MiddlewareHandler } from 'hono'

const tracer = trace.getTracer('offer-widget-bff')

export type { Span }
export { SpanKind }

/** `error.type` of an error: its `code` (a driver's or our own), else its class name. */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && /^[\w.-]{1,40}$/.test(code)) return code
  return error instanceof Error ? error.name : 'unknown'
}

/** Marks `span` failed with `type` (never a message: messages may quote what was sent). */
export function failSpan(span: Span, type: string): void {
  span.setAttribute('error.type', type)
  span.setStatus({ code: SpanStatusCode.ERROR })
}

/** Runs `work` in a new active span ended when it settles; a thrown error marks it failed by type. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span)
    } catch (error) {
      failSpan(span, errorType(error))
      throw error
    } finally {
      span.end()
    }
  })
}

/**
 * The attribute naming the offer search (or second-look lead's search) a request created: its polls,
 * whoever serves them in this process, join that request's trace (`src/server/start-tracing.ts`).
 */
export const SEARCH_UUID_ATTRIBUTE = 'offer_search.uuid'

/** Names the search the active request created or polls. */
export function tagSearch(uuid: string): void {
  trace.getActiveSpan()?.setAttribute(SEARCH_UUID_ATTRIBUTE, uuid.toLowerCase())
}

/** Sets attributes on the active span, if a trace is being recorded. */
export function annotate(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes)
}

/** Whether this work belongs to a request's trace (background work and probes start none of their own). */
export function inTrace(): boolean {
  return trace.getActiveSpan() !== undefined
}

/**
 * A span the caller ends: under the active one, or opening a trace of its own with `root` (background
 * work such as a takeover). `within` runs work inside it.
 */
export function openSpan(
  name: string,
  attributes: Attributes,
  options: { root?: boolean } = {},
): { span: Span; within<T>(work: () => T): T } {
  const span = tracer.startSpan(name, { root: options.root, attributes })
  return { span, within: (work) => context.with(trace.setSpan(context.active(), span), work) }
}

/** What `startTracing` (src/server/start-tracing.ts) hands `createBff`: the BFF only mounts it. */
export interface Tracing {
  /** Mounted first on `/api/*`: gates an incoming `traceparent`, joins polls to their search, opens the server span. */
  middleware(options: { trustedPeer(c: Context): boolean }): MiddlewareHandler
  /** Exports what is buffered and stops: part of shutdown. */
  shutdown(): Promise<void>
}
