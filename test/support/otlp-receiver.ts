/**
 * @module A local OTLP/HTTP trace receiver (what a collector's port 4318 is to the BFF): it keeps every
 * request body exactly as received, so a test can scan every exported byte, and decodes OTLP/JSON
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) into flat spans.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  /** OTLP's enum: 1 internal, 2 server, 3 client. */
  kind: number
  scope: string
  attributes: Record<string, unknown>
  events: Array<{ name: string; attributes: Record<string, unknown> }>
}

interface OtlpValue {
  stringValue?: string
  intValue?: string | number
  doubleValue?: number
  boolValue?: boolean
  arrayValue?: { values?: OtlpValue[] }
}

function decodeValue(value: OtlpValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue)
  if (value.intValue !== undefined) return Number(value.intValue)
  return value.stringValue ?? value.doubleValue ?? value.boolValue
}

function attributesOf(list: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, decodeValue(value)]))
}

export interface OtlpReceiver {
  /** The base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string
  /** Every body posted, byte for byte. */
  bodies(): Buffer[]
  spans(): ReceivedSpan[]
  close(): Promise<void>
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: Buffer[] = []
  const paths = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      paths.add(req.url ?? '')
      bodies.push(Buffer.concat(chunks))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    bodies: () => [...bodies],
    spans() {
      if ([...paths].some((path) => path !== '/v1/traces')) {
        throw new Error(`OTLP posts to ${[...paths].join(', ')}; expected /v1/traces only`)
      }
      const out: ReceivedSpan[] = []
      for (const body of bodies) {
        const parsed = JSON.parse(body.toString('utf8')) as {
          resourceSpans?: Array<{
            scopeSpans?: Array<{
              scope?: { name?: string }
              spans?: Array<{
                traceId: string
                spanId: string
                parentSpanId?: string
                name: string
                kind: number
                attributes?: Array<{ key: string; value: OtlpValue }>
                events?: Array<{ name: string; attributes?: Array<{ key: string; value: OtlpValue }> }>
              }>
            }>
          }>
        }
        for (const resource of parsed.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              out.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                scope: scope.scope?.name ?? '',
                attributes: attributesOf(span.attributes),
                events: (span.events ?? []).map((e) => ({
                  name: e.name,
                  attributes: attributesOf(e.attributes),
                })),
              })
            }
          }
        }
      }
      return out
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
