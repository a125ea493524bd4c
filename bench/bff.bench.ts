/**
 * @module BFF benchmark (issue #3). On loopback, no pipelining, each server in its own process: (a) the
 * sandbox called directly, (b) through the BFF, (c) through a minimal node:http + undici proxy written here
 * as the baseline; at a fixed 500 rps and at saturation. Then 200 pollers of one rate table for 10 s,
 * counting the BFF's upstream GETs. Prints Markdown tables with a verdict per target.
 *
 * Fixed rate: an open-loop generator sends request i at t0 + i / 500 s whatever the earlier ones are doing
 * and times each from its scheduled start, so a slow server cannot slow the load down (no coordinated
 * omission). autocannon's `-R 500` is printed beside it but is not the verdict: its rate is a per-second
 * quota that each connection spends back to back at the top of every second, so it measures ten requests
 * queued at once, not a steady 500 rps. Saturation: autocannon over 32 connections. Both in five rounds
 * taken in turn across the three paths, median of each (one round swings with whatever else the two cores
 * run, the shared sandbox's garbage collector included).
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
import { minimalProxy } from './minimal-proxy.ts'
import { VISITOR_UA } from './visitor.ts'

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
const UA = VISITOR_UA
const RUN_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
/** Saturated warm-up before each path, so each is measured as a serving process is: JIT-compiled, pools open. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3)
const FIXED_RPS = 500
const SATURATION_CONNECTIONS = 32
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
/** Which parts run: `proxy` (the route tables), `sustained`, `replicas`, `tracing`; all by default. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'proxy,sustained,replicas,tracing').split(','))
/** Search arrival rates tried in turn (searches per second); the run stops at the first that misses. */
const SEARCH_RATES = (process.env.BENCH_SEARCH_RATES ?? '20,40,60,80,100,120').split(',').map(Number)
const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 10)
const POLLS_PER_SEARCH = 15
const POLL_P99_TARGET_MS = 250
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
  } else if (name === 'bff' || name === 'bff-redis' || name === 'bff-traced') {
    const { loadConfig } = await import('../src/server/config.ts')
    const { startServer } = await import('../src/server/start-server.ts')
    const running = await startServer(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: 'warn',
        ENGINE_TOKEN: TOKEN,
        ENGINE_BASE_URL_TEST: `${upstream}/test`,
        SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
        PUBLIC_BASE_URL: 'http://127.0.0.1',
        // The load generator is one address holding many sockets.
        MAX_CONNECTIONS_PER_IP: '100000',
        ...(name === 'bff-redis' ? { REDIS_URL } : {}),
        // Tracing on: every request a trace, exported (OTLP/HTTP protobuf, the default) to the driver's sink.
        ...(name === 'bff-traced' ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.BENCH_OTLP_URL } : {}),
      }),
      // The offer-search path alone: no ledger or partners (the marketplace has its own bench).
      {
        rateLimit: false,
        staticRoot: '/nonexistent',
        secondLook: false,
        keyPrefix: process.env.BENCH_KEY_PREFIX,
        // Bench-only probe (this child process, never the product), in place of the static files (none are
        // served here): heap used after a full collection.
        staticFiles: async (c, next) => {
          if (c.req.path !== '/bench/heap') return next()
          ;(globalThis as { gc?: () => void }).gc?.()
          return c.json({ heapUsed: process.memoryUsage().heapUsed })
        },
      },
    )
    announce(running.url)
  } else if (name === 'baseline') {
    announce(await minimalProxy(upstream as string, { token: TOKEN, apiVersion: API_VERSION }))
  }
}

function announce(url: string) {
  process.stdout.write(`${JSON.stringify({ url })}\n`)
}

// ---- the driver ----

function start(
  name: string,
  upstream?: string,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SELF, name, upstream ?? ''], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
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

/**
 * Open-loop load at `rate` per second: request i is due at t0 + i / rate and is sent then (a 1 ms timer
 * sends whatever is due), and its latency runs from when it was due, so generator lateness counts against
 * the server, never for it.
 */
async function paced(url: string, target: Target, rate: number, seconds = RUN_SECONDS): Promise<RunResult> {
  const pool = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 10_000 })
  const total = Math.round(rate * seconds)
  const latencies: number[] = []
  let non2xx = 0
  let errors = 0
  const started = performance.now()
  await new Promise<void>((resolve) => {
    let sent = 0
    let settled = 0
    const settle = () => {
      settled++
      if (settled === total) resolve()
    }
    const tick = () => {
      const now = performance.now()
      while (sent < total) {
        const due = started + (sent * 1000) / rate
        if (due > now) break
        sent++
        pool
          .request({ method: target.method, path: target.path, headers: target.headers, body: target.body })
          .then(async (answer) => {
            await answer.body.dump()
            if (answer.statusCode >= 200 && answer.statusCode < 300) latencies.push(performance.now() - due)
            else non2xx++
          })
          .catch(() => {
            errors++
          })
          .finally(settle)
      }
      if (sent < total) setTimeout(tick, 1)
    }
    tick()
  })
  await pool.close()
  latencies.sort((a, b) => a - b)
  return {
    rps: total / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx,
    errors,
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

/** Runs everything; returns the names of missed targets. */
async function main(): Promise<string[]> {
  const missed: string[] = []
  const processes: ChildProcess[] = []
  try {
    const sandbox = await start('sandbox')
    processes.push(sandbox.child)
    const bff = await start('bff', sandbox.url)
    processes.push(bff.child)
    if (PARTS.has('sustained')) {
      await coalescedPollCost(bff.url)
      missed.push(...(await sustainedSection(bff.url)))
    }
    if (PARTS.has('replicas')) missed.push(...(await replicasSection(sandbox.url, processes)))
    if (PARTS.has('tracing')) await tracingSection(sandbox.url, bff.url, processes)
    if (!PARTS.has('proxy')) return missed
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
      const results: Record<string, { fixed: RunResult[]; bursty: RunResult; saturated: RunResult[] }> = {}
      for (const [label, url, target] of paths) {
        await load(url, target as Target, 'saturated', WARMUP_SECONDS) // warm-up: JIT, keep-alive pools
        results[label] = { fixed: [], bursty: await load(url, target as Target, 'fixed'), saturated: [] }
      }
      // Rounds taken in turn across the paths, so a pause in the shared sandbox (its GC, say) lands on
      // one round of one path rather than on all of one path's figures.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, url, target] of paths) {
          results[label]?.fixed.push(await paced(url, target as Target, FIXED_RPS))
        }
      }
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, url, target] of paths) {
          results[label]?.saturated.push(await load(url, target as Target, 'saturated'))
        }
      }
      const p99 = (runs: RunResult[]) => median(runs.map((r) => r.p99))
      const rps = (runs: RunResult[]) => median(runs.map((r) => r.rps))
      const sum = (runs: RunResult[], key: 'non2xx' | 'errors') => runs.reduce((n, r) => n + r[key], 0)
      for (const [label] of paths) {
        const { fixed, bursty, saturated } = results[label] as (typeof results)[string]
        rows.push(
          `| ${route.name} | ${label} | ${fmt(median(fixed.map((r) => r.p50)))} | ${fmt(p99(fixed))} ` +
            `(${fixed.map((r) => fmt(r.p99)).join(', ')}) | ${fmt(bursty.p99)} | ` +
            `${fmt(rps(saturated), 0)} (${saturated.map((r) => fmt(r.rps, 0)).join(', ')}) | ` +
            `${fmt(p99(saturated))} | ${sum(fixed, 'non2xx') + bursty.non2xx + sum(saturated, 'non2xx')} | ` +
            `${sum(fixed, 'errors') + bursty.errors + sum(saturated, 'errors')} |`,
        )
      }
      const direct = results['(a) sandbox direct'] as (typeof results)[string]
      const through = results['(b) through the BFF'] as (typeof results)[string]
      const base = results['(c) baseline proxy'] as (typeof results)[string]
      const added = p99(through.fixed) - p99(direct.fixed)
      const ratio = rps(through.saturated) / rps(base.saturated)
      const latencyMet = added <= 2
      const throughputMet = ratio >= 0.9
      // The targets are the proxied POST's; the cached issuers route is shown for comparison.
      if (route.name === 'POST offer-searches' && !(latencyMet && throughputMet)) missed.push(route.name)
      verdicts.push(
        `| ${route.name} | ${fmt(added)} ms | ${latencyMet ? 'met' : 'MISSED'} (<= 2 ms) | ` +
          `${fmt(through.bursty.p99 - direct.bursty.p99)} ms | ` +
          `${fmt(ratio * 100, 0)} % | ${throughputMet ? 'met' : 'MISSED'} (>= 90 %) |`,
      )
    }

    console.log(
      `Loopback, ${RUN_SECONDS} s per run, no pipelining, ${WARMUP_SECONDS} s saturated warm-up per path. ` +
        `Fixed rate: ${FIXED_RPS} rps open-loop (paced), median of ${ROUNDS} rounds; autocannon -R ${FIXED_RPS} ` +
        `over 10 connections beside it. Saturation: autocannon over ${SATURATION_CONNECTIONS} connections, median of ` +
        `${ROUNDS} rounds. Latencies in ms.\n`,
    )
    console.log(
      `| route | path | p50 @${FIXED_RPS} rps | p99 @${FIXED_RPS} rps (rounds) | p99 autocannon -R ${FIXED_RPS} | ` +
        'rps saturated (rounds) | p99 saturated | non-2xx | errors |',
    )
    console.log('|---|---|---|---|---|---|---|---|---|')
    for (const row of rows) console.log(row)
    console.log(
      `\n| route | p99 added by the BFF @${FIXED_RPS} rps | target | (autocannon -R ${FIXED_RPS}) | ` +
        'BFF / baseline throughput | target |',
    )
    console.log('|---|---|---|---|---|---|')
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
    if (gets > 11 || limited > 0) missed.push('coalescing')
    return missed
  } finally {
    for (const child of processes) child.kill('SIGTERM')
  }
}

const WIDGET_HEADERS = { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': UA }
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

interface SustainedResult {
  searches: number
  polls: number
  pollP50: number
  pollP99: number
  createP99: number
  errors: number
  cpuMs: number
}

/**
 * Open-loop searches: search i is created at t0 + i / rate, then polled 15 times, once a second from its
 * creation, as a widget does. Every latency runs from its due time, so generator lateness counts against
 * the server. Polls go to each search's own rate table: every one is a real upstream poll, none coalesced.
 * `urls` are replicas taken in turn (a load balancer); each search's polls alternate between them.
 */
async function sustained(urls: string[], rate: number, seconds: number): Promise<SustainedResult> {
  const pools = urls.map(
    (url) => new Pool(url, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 }),
  )
  const total = Math.round(rate * seconds)
  const pollLatencies: number[] = []
  const createLatencies: number[] = []
  let errors = 0
  let polls = 0
  const cpuBefore = await Promise.all(urls.map(cpuSeconds))
  const started = performance.now()
  const request = async (
    pool: Pool,
    path: string,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  ) => {
    const answer = await pool.request({ path, ...init })
    return { status: answer.statusCode, text: await answer.body.text() }
  }
  const searches: Promise<void>[] = []
  await new Promise<void>((resolve) => {
    let sent = 0
    const tick = () => {
      const now = performance.now()
      while (sent < total) {
        const due = started + (sent * 1000) / rate
        if (due > now) break
        const index = sent++
        searches.push(
          (async () => {
            try {
              const created = await request(pools[index % pools.length] as Pool, '/api/offer-searches', {
                method: 'POST',
                headers: WIDGET_HEADERS,
                body: SEARCH_BODY,
              })
              createLatencies.push(performance.now() - due)
              if (created.status !== 201) {
                errors++
                return
              }
              const { accessToken, rateTable } = JSON.parse(created.text) as {
                accessToken: string
                rateTable: { uuid: string }
              }
              const headers = {
                'x-offer-access-token': accessToken,
                'user-agent': UA,
                'x-offer-widget': 'bench',
              }
              const createdAt = performance.now()
              const pollsDone: Promise<void>[] = []
              for (let k = 1; k <= POLLS_PER_SEARCH; k++) {
                const pollDue = createdAt + k * 1000
                pollsDone.push(
                  sleep(pollDue - performance.now()).then(async () => {
                    try {
                      const pool = pools[(index + k) % pools.length] as Pool
                      const answer = await request(pool, `/api/offer-searches/${rateTable.uuid}`, {
                        method: 'GET',
                        headers,
                      })
                      polls++
                      if (answer.status === 200) pollLatencies.push(performance.now() - pollDue)
                      else errors++
                    } catch {
                      errors++
                    }
                  }),
                )
              }
              await Promise.all(pollsDone)
            } catch {
              errors++
            }
          })(),
        )
      }
      if (sent < total) setTimeout(tick, 1)
      else resolve()
    }
    tick()
  })
  await Promise.all(searches)
  const cpuAfter = await Promise.all(urls.map(cpuSeconds))
  await Promise.all(pools.map((pool) => pool.close()))
  pollLatencies.sort((a, b) => a - b)
  createLatencies.sort((a, b) => a - b)
  const cpu = cpuAfter.reduce((n, v, i) => n + v - (cpuBefore[i] as number), 0)
  return {
    searches: total,
    polls,
    pollP50: percentile(pollLatencies, 50),
    pollP99: percentile(pollLatencies, 99),
    createP99: percentile(createLatencies, 99),
    errors,
    cpuMs: cpu * 1000,
  }
}

async function cpuSeconds(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text()
  return Number(/^process_cpu_seconds_total (\S+)/m.exec(text)?.[1] ?? Number.NaN)
}

async function heapUsed(url: string): Promise<number> {
  const probe = await fetch(`${url}/api/bench/heap`, {
    headers: { 'x-offer-widget': 'bench', 'user-agent': UA },
  })
  return ((await probe.json()) as { heapUsed: number }).heapUsed
}

/**
 * The BFF's cost of a coalesced poll (answered from a snapshot under a second old) over HTTP: 32
 * connections polling one rate table as fast as they can for 5 s; CPU is the BFF process's own
 * (process_cpu_seconds_total), divided by the polls it answered.
 */
async function coalescedPollCost(bff: string): Promise<void> {
  const created = await fetch(`${bff}/api/offer-searches`, {
    method: 'POST',
    headers: WIDGET_HEADERS,
    body: SEARCH_BODY,
  })
  const { accessToken, rateTable } = (await created.json()) as {
    accessToken: string
    rateTable: { uuid: string }
  }
  const target: Target = {
    method: 'GET',
    path: `/api/offer-searches/${rateTable.uuid}`,
    headers: { 'x-offer-access-token': accessToken, 'user-agent': UA },
  }
  await load(bff, target, 'saturated', 2) // warm-up
  const before = await upstreamPolls(bff)
  const cpuBefore = await cpuSeconds(bff)
  const result = await instanceTotals(bff, target, 5)
  const cpu = (await cpuSeconds(bff)) - cpuBefore
  const upstream = (await upstreamPolls(bff)).total - before.total
  console.log(`\n| coalesced polls: ${SATURATION_CONNECTIONS} connections, one rate table, 5 s | value |`)
  console.log('|---|---|')
  console.log(`| polls answered (non-2xx) | ${result.total} (${result.non2xx}) |`)
  console.log(`| polls per second | ${fmt(result.total / 5, 0)} |`)
  console.log(`| BFF CPU per coalesced poll | ${fmt((cpu * 1e6) / result.total, 1)} µs |`)
  console.log(`| upstream polls meanwhile | ${upstream} |`)
}

async function instanceTotals(url: string, target: Target, seconds: number) {
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    headers: target.headers,
    duration: seconds,
    pipelining: 1,
    connections: SATURATION_CONNECTIONS,
  })
  return {
    total: (result as unknown as { requests: { total: number } }).requests.total,
    non2xx: result.non2xx,
  }
}

/** Sustained searches on one BFF, rate by rate, then the heap after the load has ended. */
async function sustainedSection(bff: string): Promise<string[]> {
  const missed: string[] = []
  // Warm-up: JIT, keep-alive pools, then the heap as a serving process holds it.
  await sustained([bff], 20, 3)
  await sleep(2000)
  const heapStart = await heapUsed(bff)
  const rows: string[] = []
  let best = 0
  for (const rate of SEARCH_RATES) {
    const r = await sustained([bff], rate, SUSTAIN_SECONDS)
    const met = r.pollP99 <= POLL_P99_TARGET_MS && r.errors === 0
    if (met) best = rate
    rows.push(
      `| ${rate} | ${r.searches} | ${r.polls} | ${fmt(r.pollP50)} | ${fmt(r.pollP99)} | ${fmt(r.createP99)} | ` +
        `${r.errors} | ${fmt((r.cpuMs * 1000) / (r.polls + r.searches), 0)} µs | ${met ? 'met' : 'MISSED'} |`,
    )
    if (!met) break
  }
  // Snapshots expire after a second and are swept every 5 s; give the sweep its turn, then collect.
  await sleep(7000)
  const heapEnd = await heapUsed(bff)
  const heapGrowth = (heapEnd - heapStart) / heapStart
  console.log(
    `\nSustained searches: open-loop arrivals for ${SUSTAIN_SECONDS} s per rate, each search polled ` +
      `${POLLS_PER_SEARCH} times at 1/s (its own rate table: every poll is an upstream poll), load generator, ` +
      'BFF and sandbox on this machine. CPU is the BFF process only (process_cpu_seconds_total).\n',
  )
  console.log(
    `| searches/s | searches | polls | poll p50 ms | poll p99 ms | create p99 ms | errors | BFF CPU per request | p99 <= ${POLL_P99_TARGET_MS} ms, 0 errors |`,
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
  console.log(`\n| sustained figure | value | target |`)
  console.log('|---|---|---|')
  console.log(`| highest rate met | ${best} searches/s (${best * POLLS_PER_SEARCH} polls/s) | reported |`)
  console.log(
    `| heap used after the load, after a full GC | ${fmt(heapStart / 1e6, 1)} MB -> ${fmt(heapEnd / 1e6, 1)} MB ` +
      `(${heapGrowth >= 0 ? '+' : ''}${fmt(heapGrowth * 100, 1)} %) | within 10 % ${Math.abs(heapGrowth) <= 0.1 ? 'met' : 'MISSED'} |`,
  )
  if (best === 0) missed.push('sustained searches')
  if (Math.abs(heapGrowth) > 0.1) missed.push('heap after load')
  return missed
}

/** Two replicas sharing Redis: 1,000 searches, each polled from both replicas in turn. */
/**
 * What tracing costs (issue 33): the BFF with no OTLP endpoint (nothing of the SDK loaded) beside one with
 * an endpoint, exporting every trace to a sink in this process that answers 200 to each OTLP post, and one
 * keeping one trace in ten (`OTEL_TRACES_SAMPLER`). The proxied POST at the fixed rate and at saturation,
 * rounds taken in turn across the three.
 */
async function tracingSection(
  sandbox: string,
  untracedUrl: string,
  processes: ChildProcess[],
): Promise<void> {
  let posts = 0
  let bytes = 0
  const sink = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length
    })
    req.on('end', () => {
      posts++
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
    })
  })
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`
  const traced = await start('bff-traced', sandbox, { BENCH_OTLP_URL: sinkUrl })
  processes.push(traced.child)
  // The operator's knob: one trace in ten kept (the SDK reads the standard variables from the process).
  const sampled = await start('bff-traced', sandbox, {
    BENCH_OTLP_URL: sinkUrl,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  })
  processes.push(sampled.child)
  const target: Target = {
    method: 'POST',
    path: '/api/offer-searches',
    headers: { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': UA },
    body: SEARCH_BODY,
  }
  const paths = [
    ['tracing off (no endpoint)', untracedUrl],
    ['tracing on (OTLP export)', traced.url],
    ['tracing on, 1 trace in 10 sampled', sampled.url],
  ] as const
  const results = new Map<string, { fixed: RunResult[]; saturated: RunResult[]; heap?: number }>()
  for (const [label, url] of paths) {
    await load(url, target, 'saturated', WARMUP_SECONDS)
    results.set(label, { fixed: [], saturated: [] })
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, url] of paths) results.get(label)?.fixed.push(await paced(url, target, FIXED_RPS))
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, url] of paths) results.get(label)?.saturated.push(await load(url, target, 'saturated'))
  }
  for (const [label, url] of paths) {
    const entry = results.get(label)
    if (entry) entry.heap = await heapUsed(url)
  }
  console.log(
    `\n### Tracing off and on: POST offer-searches through the BFF\n\n` +
      `${FIXED_RPS} rps open-loop, median of ${ROUNDS} rounds; saturation over ${SATURATION_CONNECTIONS} ` +
      `connections, median of ${ROUNDS} rounds; rounds alternate between the three. The traced BFFs exported ` +
      `${posts} OTLP posts (${fmt(bytes / 1024 / 1024, 1)} MiB) to a local sink.\n`,
  )
  console.log(
    '| BFF | p50 @500 rps | p99 @500 rps (rounds) | rps saturated (rounds) | p99 saturated | heap after GC (MiB) | non-2xx | errors |',
  )
  console.log('|---|---|---|---|---|---|---|---|')
  for (const [label] of paths) {
    const { fixed, saturated, heap } = results.get(label) as {
      fixed: RunResult[]
      saturated: RunResult[]
      heap?: number
    }
    const all = [...fixed, ...saturated]
    console.log(
      `| ${label} | ${fmt(median(fixed.map((r) => r.p50)))} | ${fmt(median(fixed.map((r) => r.p99)))} ` +
        `(${fixed.map((r) => fmt(r.p99)).join(', ')}) | ${fmt(median(saturated.map((r) => r.rps)), 0)} ` +
        `(${saturated.map((r) => fmt(r.rps, 0)).join(', ')}) | ${fmt(median(saturated.map((r) => r.p99)))} | ` +
        `${fmt((heap ?? Number.NaN) / 1024 / 1024, 1)} | ${all.reduce((n, r) => n + r.non2xx, 0)} | ` +
        `${all.reduce((n, r) => n + r.errors, 0)} |`,
    )
  }
  traced.child.kill()
  sampled.child.kill()
  await new Promise<void>((resolve) => sink.close(() => resolve()))
  if (posts === 0) throw new Error('the traced BFF exported nothing: tracing was not on')
}

async function replicasSection(sandbox: string, processes: ChildProcess[]): Promise<string[]> {
  const env = { BENCH_KEY_PREFIX: `bench:${process.pid}:${Date.now()}:` }
  const replicas = [await start('bff-redis', sandbox, env), await start('bff-redis', sandbox, env)]
  processes.push(...replicas.map((r) => r.child))
  const urls = replicas.map((r) => r.url)
  // Each replica connects to Redis after it listens: give it a few seconds to say ready.
  const readyz = async (url: string) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      // `require=redis`: ready only once this replica shares Redis (degraded is still a 200).
      const status = (await fetch(`${url}/readyz?require=redis`)).status
      if (status === 200) return status
      await sleep(100)
    }
    return 503
  }
  const ready = await Promise.all(urls.map(readyz))
  if (ready.some((status) => status !== 200)) {
    console.log(
      `\nTwo replicas sharing Redis: skipped, /readyz answered ${ready.join(', ')} (is Redis at ${REDIS_URL}?)`,
    )
    return ['replicas (no Redis)']
  }
  const before = await Promise.all(urls.map(upstreamPolls))
  const searches = 1000
  const rate = Number(process.env.BENCH_REPLICA_RATE ?? 20)
  const started = performance.now()
  const r = await sustained(urls, rate, searches / rate)
  const elapsed = (performance.now() - started) / 1000
  const after = await Promise.all(urls.map(upstreamPolls))
  const gets = after.reduce((n, a, i) => n + a.total - (before[i] as { total: number }).total, 0)
  const limited = after.reduce((n, a, i) => n + a.limited - (before[i] as { limited: number }).limited, 0)
  // Each search lives 15 s of polling; at most one upstream poll per second each, plus the one at the start.
  const bound = searches * (POLLS_PER_SEARCH + 1)
  const perTablePerSecond = gets / searches / POLLS_PER_SEARCH
  console.log(
    `\nTwo replicas sharing Redis (${REDIS_URL}): ${searches} searches at ${rate}/s, each polled ${POLLS_PER_SEARCH} ` +
      'times at 1/s, its polls alternating between the replicas (a round-robin load balancer).\n',
  )
  console.log('| two replicas, one Redis | value | target |')
  console.log('|---|---|---|')
  console.log(`| searches / polls answered | ${r.searches} / ${r.polls} in ${fmt(elapsed, 1)} s | all |`)
  console.log(`| errors (non-2xx or failed) | ${r.errors} | 0 ${r.errors === 0 ? 'met' : 'MISSED'} |`)
  console.log(`| poll p99 | ${fmt(r.pollP99)} ms | reported |`)
  console.log(
    `| upstream polls per rate table per second | ${fmt(perTablePerSecond, 3)} (${gets} polls, bound ${bound}) | <= 1 ${gets <= bound ? 'met' : 'MISSED'} |`,
  )
  console.log(
    `| upstream 429 answers (the sandbox's 1/s rule) | ${limited} | 0 ${limited === 0 ? 'met' : 'MISSED'} |`,
  )
  const missed: string[] = []
  if (r.errors > 0 || gets > bound || limited > 0) missed.push('two replicas')
  return missed
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
    (missed) => {
      if (missed.length > 0) console.error(`bff bench: targets missed: ${missed.join(', ')}`)
      process.exit(missed.length === 0 ? 0 : 1)
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
