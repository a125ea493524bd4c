/**
 * @module Tracing's trust rule (issues 33 and 44): an incoming W3C `traceparent` continues a trace only when
 * the operator opted in (`TRACE_TRUST_INCOMING=true`) and the TCP peer is a trusted proxy (`TRUST_PROXY`);
 * otherwise it is ignored and the request starts a trace of its own, and `tracestate` is never read. Real
 * server, real OTLP/HTTP export to a local receiver.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.ts'

const FORGED_TRACE = '0af7651916cd43dd8448eb211c80319c'
const FORGED_PARENT = 'b7ad6b7169203331'
const HEADERS = {
  'x-offer-widget': '1',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) TracingTest/1',
  traceparent: `00-${FORGED_TRACE}-${FORGED_PARENT}-01`,
  tracestate: 'visitor=chosen-by-the-visitor',
}

let server: RunningServer | undefined
let receiver: OtlpReceiver | undefined
afterEach(async () => {
  await server?.close()
  await receiver?.close()
  server = undefined
})

async function issuersSpan(trustProxy: string, trustIncoming = 'true') {
  receiver = await startOtlpReceiver()
  const config = loadConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: trustProxy,
    TRACE_TRUST_INCOMING: trustIncoming,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  })
  server = await startServer(config, { secondLook: false })
  const response = await fetch(`${server.url}/api/issuers`, { headers: HEADERS })
  expect(response.status).toBe(200)
  // Shutdown exports what is buffered.
  await server.close()
  const spans = receiver.spans()
  const span = spans.find((s) => s.name === 'GET /api/issuers')
  if (!span) throw new Error(`no GET /api/issuers span among ${spans.map((s) => s.name).join(', ')}`)
  return span
}

it('continues the trace a trusted proxy sends, without its tracestate', async () => {
  const span = await issuersSpan('loopback')
  expect({ traceId: span.traceId, parent: span.parentSpanId }).toEqual({
    traceId: FORGED_TRACE,
    parent: FORGED_PARENT,
  })
  // Whatever rode in tracestate would be on every span below and on every partner call: never read.
  const exported = Buffer.concat(receiver?.bodies() ?? []).toString()
  expect(exported).toContain(FORGED_TRACE)
  expect(exported).not.toContain('chosen-by-the-visitor')
})

it('ignores the traceparent of a peer that is not a trusted proxy', async () => {
  const span = await issuersSpan('10.0.0.0/8')
  expect(span.traceId).not.toBe(FORGED_TRACE)
  expect(span.parentSpanId).toBe('')
})

it('ignores even a trusted proxy’s traceparent unless the operator opted in (a proxy may pass a visitor’s through)', async () => {
  for (const trustIncoming of ['false', '']) {
    const span = await issuersSpan('loopback', trustIncoming)
    expect(span.traceId, `TRACE_TRUST_INCOMING=${trustIncoming}`).not.toBe(FORGED_TRACE)
    expect(span.parentSpanId).toBe('')
    await receiver?.close()
  }
})

/**
 * Bare packages reachable from `entry` through static imports: a dynamic `import()` is not followed, nor an
 * `import type` (erased when compiled).
 */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/^(?:import|export)\s(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
      const specifier = match[1] as string
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else packages.add(specifier)
    }
  }
  visit(entry)
  return packages
}

const SDK = /^(@opentelemetry\/(?!api$)|@hono\/otel$)/

it('the server imports no OpenTelemetry SDK, exporter or instrumentation until tracing is configured', () => {
  const fromServer = [
    ...staticPackages(fileURLToPath(new URL('../../src/server/start-server.ts', import.meta.url))),
  ]
  expect(fromServer.filter((name) => SDK.test(name))).toEqual([])
  // Only the no-op API, which instrumented code calls.
  expect(fromServer).toContain('@opentelemetry/api')
  // What `startTracing` brings in when an endpoint is set (the check above is not vacuous).
  const fromTracing = [
    ...staticPackages(fileURLToPath(new URL('../../src/server/start-tracing.ts', import.meta.url))),
  ]
  expect(fromTracing.filter((name) => SDK.test(name)).sort()).toEqual([
    '@hono/otel',
    '@opentelemetry/core',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
    '@opentelemetry/instrumentation-undici',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/semantic-conventions',
  ])
})
