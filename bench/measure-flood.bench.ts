/**
 * @module The measure flood (docs/placements.md) against the compiled server as `npm run start:prod` runs it (its
 * node flags and variables), in sandbox mode with its default ledger, PGlite on disk under a fresh `DATA_DIR`,
 * or with `--database-url` on PostgreSQL. One insurance search's access token; `FLOOD_CONNECTIONS` clients send
 * `POST /api/offer-searches/:uuid/measure` back to back for `--seconds`, each naming the offers the search was
 * served and made-up ones up to 50; second-look leads arrive at `LEADS_PER_SECOND` for 3 s before the flood
 * (the usual time, on the same warm server), during it and for 3 s after. Each lead is an applicant of its own
 * (its own SSN and date of birth), so none is held or answered as a duplicate. Reported per run: the measures'
 * answers, the leads' statuses with p50 and p99 (timed from when each was due), the offers the search was
 * served and those the placements report counts, and the report's status.
 *
 * Options (after `npm run bench -- measure-flood --`): `--base-dir <dir>` (a built checkout run as base, base and
 * branch alternating), `--branch-dir <dir>` (default this checkout, built when its dist/ is missing), `--rounds N`
 * (default 1), `--seconds N` (the flood, default 30), `--database-url <url>` (each run in a database of its own on
 * that PostgreSQL, created before and dropped after: the compiled server takes its ledger from `DATABASE_URL`
 * alone, and drizzle keeps its migration journal per database).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { Pool } from 'undici'
import { issuedSsn } from '../test/support/applicants.ts'
import { secondLookLead } from '../test/support/second-look-lead.ts'
import { startProdArgs, startProdEnv } from './start-prod.ts'
import { VISITOR_UA } from './visitor.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const arg = (name: string) => {
  const i = argv.indexOf(name)
  return i < 0 ? undefined : argv[i + 1]
}
const FLOOD_SECONDS = Number(arg('--seconds') ?? 30)
const ROUNDS = Number(arg('--rounds') ?? 1)
const DATABASE_URL = arg('--database-url')
const FLOOD_CONNECTIONS = 8
const MEASURE_OFFERS = 50
const LEADS_PER_SECOND = 5
const QUIET_SECONDS = 3
const REPORTS_TOKEN = 'bench-reports-token-0123456789abcdef'
const HEADERS = { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': VISITOR_UA }

interface Server {
  url: string
  child: ChildProcess
  data: string
  database: string | undefined
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })

/** Runs `sql` on the database `DATABASE_URL` names (creating and dropping the runs' own databases). */
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * `dir`'s compiled server, as `start:prod` starts it, in sandbox mode; resolves once `/readyz` says `ready`. Its
 * status code is not enough: it answers 200 `degraded` while the embedded ledger opens beside the listening
 * port (seconds), and a lead meanwhile waits `LEDGER_TIMEOUT_MS` for the open and is a 503.
 */
async function startServer(name: string, dir: string, run: number): Promise<Server> {
  const port = await freePort()
  const data = mkdtempSync(join(tmpdir(), 'measure-flood-data-'))
  const database = DATABASE_URL ? `measure_flood_${process.pid}_${run}` : undefined
  let databaseUrl: string | undefined
  if (database) {
    await admin(`CREATE DATABASE "${database}"`)
    const url = new URL(DATABASE_URL as string)
    url.pathname = `/${database}`
    databaseUrl = url.toString()
  }
  const log = openSync(join(data, 'bff.log'), 'a')
  const child = spawn(process.execPath, startProdArgs(dir), {
    cwd: dir,
    stdio: ['ignore', log, log],
    env: {
      ...startProdEnv(dir),
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: data,
      REPORTS_TOKEN,
      LOG_LEVEL: 'warn',
      // The load generator is one address holding many sockets; the limiters still count each request.
      MAX_CONNECTIONS_PER_IP: '100000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  })
  closeSync(log)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${data}/bff.log`)
    const ready = await fetch(`${url}/readyz`).then(
      async (r) => r.status === 200 && ((await r.json()) as { status?: string }).status === 'ready',
      () => false,
    )
    if (ready) return { url, child, data, database }
    if (Date.now() > deadline) throw new Error(`${name} was not ready within 60 s; see ${data}/bff.log`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode === null) {
    server.child.kill('SIGTERM')
    await new Promise((resolve) => server.child.once('exit', resolve))
  }
  rmSync(server.data, { recursive: true, force: true })
  if (server.database) await admin(`DROP DATABASE IF EXISTS "${server.database}" WITH (FORCE)`)
}

async function call(
  pool: Pool,
  path: string,
  init: { method?: string; headers?: object; body?: string } = {},
) {
  const res = await pool.request({
    path,
    method: (init.method ?? 'GET') as 'GET',
    headers: { ...HEADERS, ...init.headers },
    body: init.body,
  })
  return { status: res.statusCode, text: await res.body.text() }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

const tally = (m: Map<number, number>, status: number) => m.set(status, (m.get(status) ?? 0) + 1)

/** Measures of `served` and made-up offers (50 in all) back to back until `until`. */
async function flood(pool: Pool, search: Search, until: number, statuses: Map<number, number>) {
  let round = 0
  while (performance.now() < until) {
    const madeUp = Array.from(
      { length: MEASURE_OFFERS - search.served.length },
      (_, i) => `made-up-${process.pid}-${round}-${i}`,
    )
    round++
    const res = await call(pool, `/api/offer-searches/${search.uuid}/measure`, {
      method: 'POST',
      headers: { 'x-offer-access-token': search.accessToken },
      body: JSON.stringify({ shown: [...search.served, ...madeUp] }),
    })
    tally(statuses, res.status)
  }
}

/** A lead due every 1/`LEADS_PER_SECOND` s until `until`, each an applicant of its own. */
async function leads(pool: Pool, until: number) {
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  const sent: Promise<void>[] = []
  const started = performance.now()
  for (let i = 0; started + (i * 1000) / LEADS_PER_SECOND < until; i++) {
    const due = started + (i * 1000) / LEADS_PER_SECOND
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
    const lead = secondLookLead()
    lead.personalInformation.ssn = issuedSsn()
    sent.push(
      call(pool, '/api/second-look', { method: 'POST', body: JSON.stringify(lead) }).then((res) => {
        latencies.push(performance.now() - due)
        tally(statuses, res.status)
      }),
    )
  }
  await Promise.all(sent)
  return { latencies: latencies.sort((a, b) => a - b), statuses }
}

interface Search {
  uuid: string
  accessToken: string
  /** The offers of the table the search was created with: what a measure may count. */
  served: string[]
}

async function createSearch(pool: Pool): Promise<Search> {
  const created = await call(pool, '/api/offer-searches', {
    method: 'POST',
    body: JSON.stringify({ placement: 'bench' }),
  })
  if (created.status !== 201) throw new Error(`the search was answered ${created.status}: ${created.text}`)
  const { accessToken, rateTable } = JSON.parse(created.text) as {
    accessToken: string
    rateTable: { uuid: string; offers: Array<{ uuid: string }> }
  }
  return { uuid: rateTable.uuid, accessToken, served: rateTable.offers.map((offer) => offer.uuid) }
}

async function floodRun(name: string, dir: string, run: number): Promise<string> {
  const server = await startServer(name, dir, run)
  const floodPool = new Pool(server.url, { connections: FLOOD_CONNECTIONS, pipelining: 1 })
  const leadPool = new Pool(server.url, { connections: 32, pipelining: 1 })
  try {
    const search = await createSearch(leadPool)
    const before = await leads(leadPool, performance.now() + QUIET_SECONDS * 1000)
    const measures = new Map<number, number>()
    const until = performance.now() + FLOOD_SECONDS * 1000
    const [during] = await Promise.all([
      leads(leadPool, until),
      ...Array.from({ length: FLOOD_CONNECTIONS }, () => flood(floodPool, search, until, measures)),
    ])
    // The report once the flood's last search events have had their flush (1 s) and more.
    const after = await leads(leadPool, performance.now() + QUIET_SECONDS * 1000)
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const report = await call(leadPool, `/api/reports/placements?from=${day(-1)}&to=${day(1)}`, {
      headers: { authorization: `Bearer ${REPORTS_TOKEN}` },
    })
    const rows =
      report.status === 200 ? (JSON.parse(report.text) as { rows: Array<{ offersShown: number }> }).rows : []
    const counted = rows.reduce((sum, row) => sum + row.offersShown, 0)
    const count = (m: Map<number, number>) => [...m].map(([s, n]) => `${n}×${s}`).join(', ')
    const ms = (sorted: number[], p: number) => `${percentile(sorted, p).toFixed(0)} ms`
    return [
      name,
      count(measures),
      `${count(before.statuses)}; ${ms(before.latencies, 50)} / ${ms(before.latencies, 99)}`,
      count(during.statuses),
      ms(during.latencies, 50),
      ms(during.latencies, 99),
      `${count(after.statuses)}; ${ms(after.latencies, 99)}`,
      String(search.served.length),
      String(counted),
      String(report.status),
    ].join(' | ')
  } finally {
    await floodPool.close()
    await leadPool.close()
    await stopServer(server)
  }
}

async function main() {
  const branchDir = arg('--branch-dir') ?? ROOT
  const baseDir = arg('--base-dir')
  if (!existsSync(join(branchDir, 'dist/server/server/start-server.js'))) {
    execFileSync('npm', ['run', 'build', '--silent'], {
      cwd: branchDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  if (baseDir && !existsSync(join(baseDir, 'dist/server/server/start-server.js'))) {
    throw new Error(`--base-dir ${baseDir} has no dist/server: run npm run build there first`)
  }
  const ledger = DATABASE_URL ? 'PostgreSQL (a database of its own per run)' : 'PGlite on disk (DATA_DIR)'
  console.log(
    `### ${FLOOD_CONNECTIONS} clients flooding one search's measure (its served offers and made-up ones, ${MEASURE_OFFERS} a measure) for ${FLOOD_SECONDS} s, ${LEADS_PER_SECOND} leads/s; ${ledger}\n`,
  )
  console.log(
    `Compiled server as \`npm run start:prod\` runs it; base ${baseDir ?? '(none)'}, branch ${branchDir}. Leads: statuses; p50 / p99 from when each was due.\n`,
  )
  console.log(
    `| Run | Measures answered | Leads ${QUIET_SECONDS} s before | Leads during | Lead p50 | Lead p99 | Leads ${QUIET_SECONDS} s after; p99 | Offers served | Offers counted | Report |`,
  )
  console.log('| --- | --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- |')
  let run = 0
  for (let round = 0; round < ROUNDS; round++) {
    const targets = [...(baseDir ? [{ name: 'base', dir: baseDir }] : []), { name: 'branch', dir: branchDir }]
    // Alternating: each round starts with the other one, so a slow spell elsewhere lands on one run of each.
    if (round % 2 === 1) targets.reverse()
    for (const { name, dir } of targets) {
      console.log(`| ${await floodRun(`${name} (round ${round + 1})`, dir, run++)} |`)
    }
  }
}

await main()
