/**
 * @module BFF benchmark (issue #3). On loopback with autocannon, no pipelining, each server in its own
 * process: (a) the sandbox called directly, (b) through the BFF, (c) through a minimal node:http + undici
 * proxy written here as the baseline; at a fixed 500 rps and at saturation. Then 200 pollers of one rate
 * table for 10 s, counting the BFF's upstream GETs. Prints Markdown tables with a verdict per target.
 *
 * Routes: `POST offer-searches` is proxied on every request (the honest overhead figure); `GET issuers` is
 * what the direct sandbox serves without tripping its once-a-second poll rule, and the BFF answers it from
 * its cache, so that row shows the cache, not the proxy.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
// @ts-expect-error autocannon ships no type declarations; the slice used here is typed below.
import autocannonUntyped from 'autocannon'
import { Pool } from 'undici'

interface AutocannonResult {
  requests: { average: number; total: number }
  non2xx: number
  errors: number
  timeouts: number
}
type AutocannonInstance = Promise<AutocannonResult> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void
}
const autocannon = autocannonUntyped as (options: Record<string, unknown>) => AutocannonInstance

const SELF = fileURLToPath(import.meta.url)
const TOKEN = 'sandbox-test-token'
const API_VERSION = '2026-02-25'
const UA = 'Mozilla/5.0 (bench)'
const RUN_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
/** Saturated warm-up before each path; 1 s still leaves the BFF's JIT cold (p50 @500 rps ~2 ms higher than after 5 s). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1)
const FIXED_RPS = 500
const SATURATION_CONNECTIONS = 32
const SEARCH_BODY = JSON.stringify({
  productTypes: ['AutomobileInsurance'],
  sessionInformation: { ipAddress: '203.0.113.7', userAgent: UA },
  personalInformation: { zipcode: '94105' },
})

// ---- child roles: each server runs alone in its own process ----

async function role(name: string, upstream: string | undefined) {
  if (name === 'sandbox') {
    const { serveSandbox } = await import('../src/sandbox/index.ts')
    const served = await serveSandbox({ port: 0 })
    announce(served.url)
  } else if (name === 'bff') {
    const { loadConfig } = await import('../src/config.ts')
    const { startServer } = await import('../src/server.ts')
    const running = await startServer(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: 'warn',
        ENGINE_TOKEN: TOKEN,
        ENGINE_BASE_URL_TEST: `${upstream}/test`,
        SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      }),
      // The offer-search path alone: no ledger or partners (the marketplace has its own bench).
      { rateLimit: false, staticRoot: '/nonexistent', secondLook: false },
    )
    announce(running.url)
  } else if (name === 'baseline') {
    announce(await baselineProxy(upstream as string))
  }
}

function announce(url: string) {
  process.stdout.write(`${JSON.stringify({ url })}\n`)
}

/** The least a proxy can do: map the route, add the upstream headers, stream the answer back. */
async function baselineProxy(upstream: string): Promise<string> {
  const origin = new URL(upstream).origin
  const pool = new Pool(origin, { connections: 128, pipelining: 1, keepAliveTimeout: 10_000 })
  const paths: Record<string, string> = {
    'GET /api/issuers': '/test/leads/autoInsurance/issuers',
    'POST /api/offer-searches': '/test/offerSearches/',
  }
  const server = createServer((req, res) => {
    const path = paths[`${req.method} ${req.url}`]
    if (!path) {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      pool
        .request({
          method: req.method as 'GET' | 'POST',
          path,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            'api-version': API_VERSION,
            'content-type': 'application/json',
          },
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        })
        .then(async (answer) => {
          const body = Buffer.from(await answer.body.arrayBuffer())
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body)
        })
        .catch(() => res.writeHead(502).end())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

// ---- the driver ----

function start(name: string, upstream?: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, name, upstream ?? ''], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split('\n').find((l) => l.startsWith('{"url"'))
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url, child })
    })
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)))
  })
}

interface Target {
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
}

interface RunResult {
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number
}

async function load(url: string, target: Target, mode: 'fixed' | 'saturated', seconds = RUN_SECONDS) {
  const latencies: number[] = []
  const instance = autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    duration: seconds,
    pipelining: 1,
    connections: mode === 'fixed' ? 10 : SATURATION_CONNECTIONS,
    ...(mode === 'fixed' ? { overallRate: FIXED_RPS } : {}),
  })
  // autocannon's own histogram has 1 ms resolution; its response event carries hrtime milliseconds.
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms)
  })
  const result = await instance
  latencies.sort((a, b) => a - b)
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  } satisfies RunResult
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

async function main() {
  const processes: ChildProcess[] = []
  try {
    const sandbox = await start('sandbox')
    processes.push(sandbox.child)
    const bff = await start('bff', sandbox.url)
    processes.push(bff.child)
    const baseline = await start('baseline', sandbox.url)
    processes.push(baseline.child)

    const upstreamHeaders = {
      authorization: `Bearer ${TOKEN}`,
      'api-version': API_VERSION,
      'content-type': 'application/json',
    }
    const widgetHeaders = { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': UA }
    const routes = [
      {
        name: 'POST offer-searches',
        direct: { method: 'POST', path: '/test/offerSearches/', headers: upstreamHeaders, body: SEARCH_BODY },
        bff: { method: 'POST', path: '/api/offer-searches', headers: widgetHeaders, body: SEARCH_BODY },
        baseline: { method: 'POST', path: '/api/offer-searches', headers: widgetHeaders, body: SEARCH_BODY },
      },
      {
        name: 'GET issuers',
        direct: { method: 'GET', path: '/test/leads/autoInsurance/issuers', headers: upstreamHeaders },
        bff: { method: 'GET', path: '/api/issuers', headers: { 'user-agent': UA } },
        baseline: { method: 'GET', path: '/api/issuers', headers: { 'user-agent': UA } },
      },
    ] as const

    const rows: string[] = []
    const verdicts: string[] = []
    for (const route of routes) {
      const paths = [
        ['(a) sandbox direct', sandbox.url, route.direct],
        ['(b) through the BFF', bff.url, route.bff],
        ['(c) baseline proxy', baseline.url, route.baseline],
      ] as const
      const results: Record<string, { fixed: RunResult; saturated: RunResult }> = {}
      for (const [label, url, target] of paths) {
        await load(url, target as Target, 'saturated', WARMUP_SECONDS) // warm-up: JIT, keep-alive pools
        const fixed = await load(url, target as Target, 'fixed')
        const saturated = await load(url, target as Target, 'saturated')
        results[label] = { fixed, saturated }
        rows.push(
          `| ${route.name} | ${label} | ${fmt(fixed.p50)} | ${fmt(fixed.p99)} | ${fmt(saturated.rps, 0)} | ` +
            `${fmt(saturated.p99)} | ${fixed.non2xx + saturated.non2xx} | ${fixed.errors + saturated.errors} |`,
        )
      }
      const direct = results['(a) sandbox direct'] as { fixed: RunResult; saturated: RunResult }
      const through = results['(b) through the BFF'] as { fixed: RunResult; saturated: RunResult }
      const base = results['(c) baseline proxy'] as { fixed: RunResult; saturated: RunResult }
      const added = through.fixed.p99 - direct.fixed.p99
      const ratio = through.saturated.rps / base.saturated.rps
      verdicts.push(
        `| ${route.name} | ${fmt(added)} ms | ${added <= 2 ? 'met' : 'MISSED'} (<= 2 ms) | ` +
          `${fmt(ratio * 100, 0)} % | ${ratio >= 0.9 ? 'met' : 'MISSED'} (>= 90 %) |`,
      )
    }

    console.log(
      `Loopback, ${RUN_SECONDS} s per run, no pipelining; fixed rate ${FIXED_RPS} rps over 10 connections,`,
    )
    console.log(
      `saturation over ${SATURATION_CONNECTIONS} connections. Latencies in ms from autocannon's hrtime.\n`,
    )
    console.log(
      '| route | path | p50 @500 rps | p99 @500 rps | rps saturated | p99 saturated | non-2xx | errors |',
    )
    console.log('|---|---|---|---|---|---|---|---|')
    for (const row of rows) console.log(row)
    console.log('\n| route | p99 added by the BFF @500 rps | target | BFF / baseline throughput | target |')
    console.log('|---|---|---|---|---|')
    for (const row of verdicts) console.log(row)

    // The BFF's own time per proxied POST, from its metrics: request time minus the upstream call.
    const text = await (await fetch(`${bff.url}/metrics`)).text()
    const sum = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN)
    const httpSum = sum(
      /^bff_http_request_duration_seconds_sum\{method="POST",route="\/api\/offer-searches",status="201"\} (\S+)/m,
    )
    const httpCount = sum(
      /^bff_http_request_duration_seconds_count\{method="POST",route="\/api\/offer-searches",status="201"\} (\S+)/m,
    )
    const upSum = sum(/^bff_upstream_request_duration_seconds_sum\{operation="create"\} (\S+)/m)
    const upCount = sum(/^bff_upstream_request_duration_seconds_count\{operation="create"\} (\S+)/m)
    const lagP99 = sum(/^nodejs_eventloop_lag_p99_seconds (\S+)/m)
    console.log('\n| BFF self-measurement (POST offer-searches, all runs) | value |')
    console.log('|---|---|')
    console.log(`| mean request time in the BFF | ${fmt((httpSum / httpCount) * 1000, 3)} ms |`)
    console.log(`| mean upstream call inside it | ${fmt((upSum / upCount) * 1000, 3)} ms |`)
    console.log(
      `| mean time the BFF adds (request - upstream) | ${fmt(((httpSum - upSum) / httpCount) * 1000, 3)} ms |`,
    )
    console.log(`| event-loop lag p99 of the BFF process | ${fmt(lagP99 * 1000)} ms |`)

    // Coalescing: 200 concurrent pollers of one rate table for 10 s.
    const created = await fetch(`${bff.url}/api/offer-searches`, {
      method: 'POST',
      headers: widgetHeaders,
      body: JSON.stringify({ personalInformation: { zipcode: '00003' } }),
    })
    const { accessToken, rateTable } = (await created.json()) as {
      accessToken: string
      rateTable: { uuid: string }
    }
    const pollsBefore = await upstreamPolls(bff.url)
    const polling = await autocannon({
      url: `${bff.url}/api/offer-searches/${rateTable.uuid}`,
      headers: { 'x-offer-access-token': accessToken, 'user-agent': UA },
      connections: 200,
      pipelining: 1,
      duration: 10,
    })
    const pollsAfter = await upstreamPolls(bff.url)
    const gets = pollsAfter.total - pollsBefore.total
    const limited = pollsAfter.limited - pollsBefore.limited
    console.log('\n| coalescing: 200 pollers, one rate table, 10 s | value | target |')
    console.log('|---|---|---|')
    console.log(
      `| requests answered by the BFF | ${polling.requests.total} (${polling.non2xx} non-2xx) | all 200 |`,
    )
    console.log(`| upstream GETs | ${gets} | <= 11 ${gets <= 11 ? 'met' : 'MISSED'} |`)
    console.log(`| upstream 429 answers | ${limited} | 0 ${limited === 0 ? 'met' : 'MISSED'} |`)
  } finally {
    for (const child of processes) child.kill('SIGTERM')
  }
}

/** Reads the BFF's own counter of upstream polls (and of those answered 429) from /metrics. */
async function upstreamPolls(url: string): Promise<{ total: number; limited: number }> {
  const text = await (await fetch(`${url}/metrics`)).text()
  let total = 0
  let limited = 0
  for (const match of text.matchAll(
    /^bff_upstream_requests_total\{operation="poll",status="([^"]+)"\} (\d+)/gm,
  )) {
    total += Number(match[2])
    if (match[1] === '429') limited += Number(match[2])
  }
  return { total, limited }
}

const [roleName, roleUpstream] = process.argv.slice(2)
if (roleName) {
  role(roleName, roleUpstream || undefined).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
