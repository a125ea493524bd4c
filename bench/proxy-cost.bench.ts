/**
 * @module The BFF as publishers run it (issue #43): the compiled server started with `npm run start:prod`'s own
 * arguments (its node flags included), base and branch, beside a minimal node:http + undici proxy and the
 * sandbox upstream called directly. Every server is its own process; rounds take the paths in turn, the
 * order rotated each round, so a pause elsewhere on the two cores lands on one round of one path. Each
 * fixed-rate run waits until every process is idle (`settle`), so the work a saturated run leaves behind in one
 * server is not counted in the next server's p99.
 *
 * Per route (the proxied `POST /api/offer-searches`, the cached `GET /api/issuers`):
 * - saturated throughput, autocannon over 32 connections, and its ratio to the minimal proxy;
 * - p99 at a fixed 500 rps (open loop: request i is due at t0 + i / 500 s and timed from then), and what the
 *   server adds to the upstream's own p99;
 * - the CPU time each server spends per request while saturated, every thread counted (its collector's helpers
 *   and the ledger's thread): on a machine whose two cores the upstream and the load generator share, the
 *   throughput ratio depends on them too, and this does not;
 * - the server's event-loop lag p99 during that fixed-rate run (prom-client's histogram, reset by the scrape
 *   before the run and read by the scrape after it);
 * and, once, each server's idle RSS after the load has stopped.
 *
 * The branch is also run with other `--max-semi-space-size` values (the idle-memory flag; none by default), so
 * the flag's cost under load and its saving at idle are printed side by side.
 *
 * The BFF runs with production settings: its per-IP limit, identity, bot refusal, tokens, metrics, access
 * logs (to a file) and the second look with its embedded ledger are all on. Only the per-IP allowances are
 * raised, since the load generator is one address: the limiter still counts every request.
 *
 * Options (after `npm run bench -- proxy-cost --`): `--base <ref>` (default: the merge-base with main, or
 * `BENCH_BASE`), `--no-base` (the branch alone), `--no-build` (use the branch's existing dist/),
 * `--rounds N` (default 5), `--seconds N` per run (default 5), `--database-url <url>` (the ledger on that
 * PostgreSQL instead of PGlite), `BENCH_NODE_FLAGS` (more node flags for the servers: `--trace-gc`), `--semi-spaces 0,8` (the branch's variants:
 * `--max-semi-space-size` in MB, 0 for none; default 0), `--profile <dir>` (CPU profiles of the branch,
 * instead of the table: see `profileBranch`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
// @ts-expect-error autocannon ships no type declarations; the slice used here is typed below.
import autocannonUntyped from 'autocannon'
import { Pool } from 'undici'
import { minimalProxy } from './minimal-proxy.ts'
import { startProdArgs, startProdEnv } from './start-prod.ts'
import { VISITOR_UA } from './visitor.ts'

type Autocannon = (options: Record<string, unknown>) => Promise<{
  requests: { average: number; total: number }
  non2xx: number
  errors: number
  timeouts: number
}>
const autocannon = autocannonUntyped as Autocannon

const SELF = fileURLToPath(import.meta.url)
const root = join(dirname(SELF), '..')
const argv = process.argv.slice(2)
const arg = (name: string) => {
  const at = argv.indexOf(name)
  return at < 0 ? undefined : argv[at + 1]
}
const TOKEN = 'sandbox-test-token'
const API_VERSION = '2026-02-25'
const ROUNDS = Number(arg('--rounds') ?? 5)
const SECONDS = Number(arg('--seconds') ?? 5)
const FIXED_RPS = 500
/** The branch again with `--max-semi-space-size` set to each of these (0: the flag left out). */
const SEMI_SPACES = (arg('--semi-spaces') ?? '0').split(',').map(Number)
const CONNECTIONS = 32
const SEARCH_BODY = JSON.stringify({
  productTypes: ['AutomobileInsurance'],
  sessionInformation: { ipAddress: '203.0.113.7', userAgent: VISITOR_UA },
  personalInformation: { zipcode: '94105' },
})

// ---- child roles: the sandbox and the minimal proxy, each alone in its process ----

async function role(name: string, upstream: string) {
  if (name === '--sandbox') {
    const { serveSandbox } = await import('../src/sandbox/index.ts')
    announce((await serveSandbox({ port: 0 })).url)
  } else if (name === '--baseline') {
    announce(await minimalProxy(upstream, { token: TOKEN, apiVersion: API_VERSION }))
  }
}

function announce(url: string) {
  process.stdout.write(`${JSON.stringify({ url })}\n`)
}

// ---- the driver ----

interface Server {
  name: string
  url: string
  child: ChildProcess
}

function startRole(name: string, upstream = ''): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, name, upstream], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split('\n').find((l) => l.startsWith('{"url"'))
      if (line) resolve({ name, url: (JSON.parse(line) as { url: string }).url, child })
    })
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)))
  })
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()

/** The base ref's tree, exported and built once per commit. */
function prepareBase(ref: string): { dir: string; label: string } {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`)
  const dir = join(tmpdir(), `offer-widget-bench-prod-${sha.slice(0, 12)}`)
  if (!existsSync(join(dir, 'dist/server/server/start-server.js'))) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: root })
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  }
  return { dir, label: `${ref} (${sha.slice(0, 9)})` }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })

/**
 * One `start:prod` process from `dir`: node with the script's own flags (less those in `without`), production
 * settings but for the raised per-address allowances, logs to a file. Resolves once `/readyz` answers 200.
 */
async function startProd(
  name: string,
  dir: string,
  upstream: string,
  { semiSpaceMb, extra = [] }: { semiSpaceMb?: number; extra?: string[] } = {},
) {
  const port = await freePort()
  const data = mkdtempSync(join(tmpdir(), 'offer-widget-bench-prod-data-'))
  const log = openSync(join(data, 'bff.log'), 'a')
  // The script's flags, its semi-space size replaced (0: none) when the variant asks.
  const flags = startProdArgs(dir).flatMap((a) =>
    semiSpaceMb === undefined || !a.startsWith('--max-semi-space-size')
      ? [a]
      : semiSpaceMb === 0
        ? []
        : [`--max-semi-space-size=${semiSpaceMb}`],
  )
  const args = [...extra, ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), ...flags]
  const child = spawn(process.execPath, args, {
    cwd: dir,
    stdio: ['ignore', log, log],
    env: {
      // The script's own variables (`MALLOC_ARENA_MAX`) as `npm run start:prod` sets them, of base or branch.
      ...startProdEnv(dir),
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: data,
      ENGINE_TOKEN: TOKEN,
      ENGINE_BASE_URL_TEST: `${upstream}/test`,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef-Zq9x',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      // The load generator is one address holding many sockets; the limiter still counts each request.
      MAX_CONNECTIONS_PER_IP: '100000',
      RATE_LIMIT_POINTS: '1000000',
      SANDBOX_RATE_LIMIT_POINTS: '1000000',
      // `--database-url`: the ledger on that PostgreSQL instead of the embedded PGlite.
      ...(arg('--database-url') ? { DATABASE_URL: arg('--database-url') } : {}),
    },
  })
  closeSync(log)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${data}/bff.log`)
    const ready = await fetch(`${url}/readyz`).then(
      async (r) => ((await r.json()) as { status?: string }).status === 'ready',
      () => false,
    )
    if (ready) return { name, url, child, data }
    if (Date.now() > deadline) throw new Error(`${name} was not ready within 60 s; see ${data}/bff.log`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

interface Target {
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number)
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

/** `pid`: the server's process, whose CPU time (every thread) is divided by the requests it answered. */
async function saturated(url: string, target: Target, seconds = SECONDS, pid?: number) {
  const ticksBefore = pid === undefined ? 0 : cpuTicks(pid)
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    duration: seconds,
    pipelining: 1,
    connections: CONNECTIONS,
  })
  // Clock ticks are 10 ms: over a 5 s run of thousands of requests, a few hundred of them.
  const cpuMs = pid === undefined ? Number.NaN : ((cpuTicks(pid) - ticksBefore) * 10) / result.requests.total
  return { rps: result.requests.average, failed: result.non2xx + result.errors + result.timeouts, cpuMs }
}

/** Open-loop load at `rate` per second; each latency runs from when its request was due. */
async function paced(url: string, target: Target, rate = FIXED_RPS, seconds = SECONDS) {
  const pool = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 10_000 })
  const total = Math.round(rate * seconds)
  const latencies: number[] = []
  let failed = 0
  const started = performance.now()
  await new Promise<void>((resolve) => {
    let sent = 0
    let settled = 0
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
            else failed++
          })
          .catch(() => failed++)
          .finally(() => {
            if (++settled === total) resolve()
          })
      }
      if (sent < total) setTimeout(tick, 1)
    }
    tick()
  })
  await pool.close()
  latencies.sort((a, b) => a - b)
  return { p99: percentile(latencies, 99), failed }
}

/**
 * prom-client's lag histogram (Node's `monitorEventLoopDelay`, 10 ms resolution) records the time between two
 * of its 10 ms timer ticks, so an idle loop reads 10 ms: the lag is what a sample holds beyond that interval.
 */
const LAG_RESOLUTION_MS = 10

/** The server's event-loop lag p99 since its last scrape (prom-client resets the histogram on each). */
async function loopLagMs(url: string, bff = true): Promise<number> {
  return (await sampledLagMs(url, bff)) - LAG_RESOLUTION_MS
}

async function sampledLagMs(url: string, bff: boolean): Promise<number> {
  if (!bff) return ((await (await fetch(`${url}/lag`)).json()) as { p99: number }).p99
  const text = await (await fetch(`${url}/metrics`)).text()
  return Number(/^nodejs_eventloop_lag_p99_seconds (\S+)/m.exec(text)?.[1] ?? Number.NaN) * 1000
}

const rssMb = (pid: number | undefined) =>
  Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024

/** CPU time (user + system, every thread) a process has used, in clock ticks (100 a second on Linux). */
const cpuTicks = (pid: number | undefined) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name in parentheses: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/**
 * Waits until every process of the bench is idle: under 3 ticks (30 ms of CPU) over a 250 ms window, at most
 * 15 s. A saturated run leaves work behind in the server it loaded (search events a second later, old-space
 * collection); without the wait it ran on the two cores during the next server's fixed-rate run and was
 * counted in that server's p99.
 */
async function settle(pids: Array<number | undefined>): Promise<void> {
  const deadline = Date.now() + 15_000
  let before = pids.map(cpuTicks)
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const now = pids.map(cpuTicks)
    const used = now.reduce((sum, ticks, i) => sum + ticks - (before[i] ?? 0), 0)
    if (used < 3) return
    before = now
  }
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

function buildBranch() {
  if (argv.includes('--no-build')) return
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
}

const upstreamHeaders = {
  authorization: `Bearer ${TOKEN}`,
  'api-version': API_VERSION,
  'content-type': 'application/json',
}
const widgetHeaders = {
  'content-type': 'application/json',
  'x-offer-widget': 'bench',
  'user-agent': VISITOR_UA,
}
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd'
const ROUTES = [
  {
    name: 'POST /api/offer-searches (proxied)',
    direct: { method: 'POST', path: '/test/offerSearches/', headers: upstreamHeaders, body: SEARCH_BODY },
    served: { method: 'POST', path: '/api/offer-searches', headers: widgetHeaders, body: SEARCH_BODY },
  },
  {
    // What a phone's browser sends: the same request with its Accept-Encoding (answers of 1 KiB or more gzip).
    name: 'POST /api/offer-searches, browser Accept-Encoding',
    direct: {
      method: 'POST',
      path: '/test/offerSearches/',
      headers: { ...upstreamHeaders, 'accept-encoding': BROWSER_ENCODINGS },
      body: SEARCH_BODY,
    },
    served: {
      method: 'POST',
      path: '/api/offer-searches',
      headers: { ...widgetHeaders, 'accept-encoding': BROWSER_ENCODINGS },
      body: SEARCH_BODY,
    },
  },
  {
    name: 'GET /api/issuers (cached by the BFF)',
    direct: { method: 'GET', path: '/test/leads/autoInsurance/issuers', headers: upstreamHeaders },
    served: { method: 'GET', path: '/api/issuers', headers: { 'user-agent': VISITOR_UA } },
  },
] as const

async function main() {
  buildBranch()
  const baseRef = argv.includes('--no-base')
    ? undefined
    : (arg('--base') ?? process.env.BENCH_BASE ?? git('merge-base', 'HEAD', 'main'))
  const base = baseRef ? prepareBase(baseRef) : undefined
  const processes: ChildProcess[] = []
  try {
    const sandbox = await startRole('--sandbox')
    processes.push(sandbox.child)
    const profileDir = arg('--profile')
    if (profileDir) return await profileBranch(sandbox.url, profileDir, processes)
    const baseline = await startRole('--baseline', sandbox.url)
    processes.push(baseline.child)
    const servers: { name: string; url: string; pid?: number; bff: boolean }[] = [
      { name: 'sandbox direct', url: sandbox.url, pid: sandbox.child.pid, bff: false },
      { name: 'minimal proxy', url: baseline.url, pid: baseline.child.pid, bff: false },
    ]
    const prod = [
      ...(base ? [await startProd('base', base.dir, sandbox.url)] : []),
      await startProd('branch', root, sandbox.url),
      ...(await Promise.all(
        SEMI_SPACES.map((mb) =>
          startProd(
            mb === 0 ? 'branch, no --max-semi-space-size' : `branch, --max-semi-space-size=${mb}`,
            root,
            sandbox.url,
            { semiSpaceMb: mb },
          ),
        ),
      )),
    ]
    for (const p of prod) {
      processes.push(p.child)
      servers.push({ name: p.name, url: p.url, pid: p.child.pid, bff: true })
    }
    const rssStart = new Map(servers.filter((s) => s.bff).map((s) => [s.name, rssMb(s.pid)]))

    type Cell = { rps: number[]; p99: number[]; lag: number[]; cpu: number[]; failed: number }
    const cells = new Map<string, Cell>()
    const cell = (route: string, server: string) => {
      const key = `${route}|${server}`
      if (!cells.has(key)) cells.set(key, { rps: [], p99: [], lag: [], cpu: [], failed: 0 })
      return cells.get(key) as Cell
    }
    for (const route of ROUTES) {
      for (const server of servers) {
        const target = (server.name === 'sandbox direct' ? route.direct : route.served) as Target
        await saturated(server.url, target, 3) // warm-up: JIT, keep-alive pools, caches
      }
      for (let round = 0; round < ROUNDS; round++) {
        const order = servers.map((_, i) => servers[(i + round) % servers.length] as (typeof servers)[number])
        for (const server of order) {
          const target = (server.name === 'sandbox direct' ? route.direct : route.served) as Target
          const c = cell(route.name, server.name)
          const lagged = server.name !== 'sandbox direct'
          await settle(processes.map((child) => child.pid))
          if (lagged) await loopLagMs(server.url, server.bff)
          const fixed = await paced(server.url, target)
          if (lagged) c.lag.push(await loopLagMs(server.url, server.bff))
          const sat = await saturated(server.url, target, SECONDS, server.pid)
          c.p99.push(fixed.p99)
          c.rps.push(sat.rps)
          c.cpu.push(sat.cpuMs)
          c.failed += fixed.failed + sat.failed
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5000))
    const rssIdle = new Map(servers.filter((s) => s.bff).map((s) => [s.name, rssMb(s.pid)]))

    console.log(
      `Compiled server as \`npm run start:prod\` runs it (node ${startProdArgs(root).slice(0, -1).join(' ')}), ` +
        `base ${base?.label ?? '(none)'} and the working tree. Loopback, 2 cores shared by every process and the ` +
        `load generator. ${ROUNDS} rounds of ${SECONDS} s per cell, paths in turn (order rotated each round), each fixed-rate run after every process is idle, ` +
        `medians (rounds in brackets). Fixed rate: ${FIXED_RPS} rps open loop. Saturation: autocannon, ${CONNECTIONS} ` +
        `connections, no pipelining. Load average ${(await import('node:os'))
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} at the end.\n`,
    )
    console.log(
      '| route | server | rps saturated (rounds) | / minimal proxy | p99 @500 rps ms | p99 added ms | loop lag p99 @500 rps ms (past the 10 ms sampling tick) | CPU ms a request, saturated (every thread) | failed |',
    )
    console.log('|---|---|---|---|---|---|---|---|---|')
    for (const route of ROUTES) {
      const proxy = median(cell(route.name, 'minimal proxy').rps)
      const direct = median(cell(route.name, 'sandbox direct').p99)
      for (const server of servers) {
        const c = cell(route.name, server.name)
        const rps = median(c.rps)
        console.log(
          `| ${route.name} | ${server.name} | ${fmt(rps, 0)} (${c.rps.map((r) => fmt(r, 0)).join(', ')}) | ` +
            `${server.name === 'sandbox direct' ? '' : `${fmt((rps / proxy) * 100, 0)} %`} | ${fmt(median(c.p99), 2)} | ` +
            `${server.name === 'sandbox direct' ? '' : fmt(median(c.p99) - direct, 2)} | ` +
            `${c.lag.length > 0 ? fmt(median(c.lag), 2) : ''} | ${fmt(median(c.cpu), 3)} | ${c.failed} |`,
        )
      }
    }
    console.log('\n| server | RSS after start MB | RSS idle after the load MB | target |')
    console.log('|---|---|---|---|')
    for (const [name, idle] of rssIdle) {
      console.log(
        `| ${name} | ${fmt(rssStart.get(name) ?? Number.NaN, 0)} | ${fmt(idle, 0)} | <= 200 ${idle <= 200 ? 'met' : 'MISSED'} |`,
      )
    }
  } finally {
    for (const child of processes) child.kill('SIGTERM')
  }
}

/**
 * `--profile <dir>`: for each of the proxied POST (without and with a browser's Accept-Encoding), the cached
 * GET and a poll of one search, a fresh branch
 * start:prod under `--cpu-prof`, warmed for 3 s and driven saturated for 10 s, then stopped with SIGTERM (the
 * server exits cleanly, so node writes its profile); prints where its time went.
 */
async function profileBranch(upstream: string, dir: string, processes: ChildProcess[]) {
  const { readdirSync } = await import('node:fs')
  for (const route of ['post', 'post-browser', 'cached-get', 'poll'] as const) {
    const routeDir = join(dir, route)
    rmSync(routeDir, { recursive: true, force: true })
    mkdirSync(routeDir, { recursive: true })
    const server = await startProd('branch', root, upstream, {
      extra: ['--cpu-prof', `--cpu-prof-dir=${routeDir}`],
    })
    processes.push(server.child)
    const routeIndex = { post: 0, 'post-browser': 1, 'cached-get': 2, poll: 2 }[route]
    let target = ROUTES[routeIndex]?.served as Target
    if (route === 'poll') {
      const created = await fetch(`${server.url}/api/offer-searches`, {
        method: 'POST',
        headers: widgetHeaders,
        body: SEARCH_BODY,
      })
      const { accessToken, rateTable } = (await created.json()) as {
        accessToken: string
        rateTable: { uuid: string }
      }
      target = {
        method: 'GET',
        path: `/api/offer-searches/${rateTable.uuid}`,
        headers: { 'x-offer-access-token': accessToken, 'user-agent': VISITOR_UA, 'x-offer-widget': 'bench' },
      }
    }
    await saturated(server.url, target, 3)
    const run = await saturated(server.url, target, 10)
    console.log(
      `\n### ${route}: ${target.method} ${target.path}: ${fmt(run.rps, 0)} rps saturated, ${run.failed} failed`,
    )
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.kill('SIGTERM')
    await exited
    // The server's own thread (id 0): the ledger's thread writes a profile of its own beside it.
    const file = readdirSync(routeDir).find((f) => /\.0\.\d+\.cpuprofile$/.test(f))
    if (!file) throw new Error(`no profile written under ${routeDir}`)
    printTopFunctions(join(routeDir, file))
  }
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/** Self time per function (name, file, line), from the profile's samples; the top 30 and the idle share. */
function printTopFunctions(path: string) {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[]
    samples: number[]
    timeDeltas: number[]
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)
    const delta = profile.timeDeltas[i] ?? 0
    total += delta
    if (!node) return
    const { functionName, url, lineNumber } = node.callFrame
    const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + delta)
  })
  const byPackage = new Map<string, number>()
  for (const [key, us] of self) {
    const where = key.split(' ').pop() ?? ''
    const pkg = where.startsWith('dist/')
      ? where.split('/').slice(0, 3).join('/')
      : where.startsWith('node:')
        ? 'node internals'
        : where.startsWith(':')
          ? key.split(' ')[0]
          : (where.match(/^(@[^/]+\/[^/]+|[^/]+)/)?.[1] ?? where)
    byPackage.set(pkg as string, (byPackage.get(pkg as string) ?? 0) + us)
  }
  console.log(`\nProfile ${path}: ${fmt(total / 1e6, 1)} s sampled. Self time by where the code lives:\n`)
  console.log(
    [...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([pkg, us]) => `${pkg} ${fmt((us / total) * 100, 1)} %`)
      .join(' · '),
  )
  console.log('\nTop functions by self time:\n')
  console.log('| self % | function |')
  console.log('|---|---|')
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`| ${fmt((us / total) * 100, 1)} | ${key} |`)
  }
}

const [roleName, roleUpstream] = argv
if (roleName === '--sandbox' || roleName === '--baseline') {
  role(roleName, roleUpstream ?? '').catch((error: unknown) => {
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
