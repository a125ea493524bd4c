/**
 * @module The embedded default's footprint, as a publisher runs it: `npm run start:prod` (the built server,
 * `dist/server/server/start-server.js`) in sandbox mode, once with the PGlite ledger (no DATABASE_URL, a fresh DATA_DIR)
 * and once on PostgreSQL when DATABASE_URL is set (a throwaway schema). For each: time from spawn to the
 * first `/healthz` 200, and the process's resident memory (VmRSS) idle, after 100 offer searches polled to
 * completion, and after 1,000 second-look leads settled. Exits non-zero when the PGlite run misses its
 * targets (ready within 2 s, idle at most 200 MB).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { secondLookLead } from '../test/support/second-look-lead.ts'
import { startProdArgs, startProdEnv } from './start-prod.ts'
import { VISITOR_UA } from './visitor.ts'

const READY_TARGET_MS = 2_000
const IDLE_TARGET_MB = 200
const SEARCHES = 100
const LEADS = 1_000
const CONCURRENCY = 20

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const serverFile = join(root, 'dist/server/server/start-server.js')
if (!existsSync(serverFile)) {
  console.error('footprint bench: dist/server/server/start-server.js is missing; run npm run build first')
  process.exit(1)
}

const headers = { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': VISITOR_UA }
const SEARCH = JSON.stringify({
  productTypes: ['AutomobileInsurance'],
  personalInformation: { zipcode: '94105' },
})

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Math.round(Number(match?.[1] ?? 0) / 1024)
}

async function pool<T>(count: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++
        results[i] = await run(i)
      }
    }),
  )
  return results
}

/** Polls a created search (offer search or lead) until it reports no pending responses. */
async function settle(url: string, created: { accessToken: string; rateTable: { uuid: string } }) {
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    const res = await fetch(`${url}/${created.rateTable.uuid}`, {
      headers: { ...headers, 'x-offer-access-token': created.accessToken },
    })
    const table = (await res.json()) as { pendingResponses?: unknown[] }
    if (res.ok && table.pendingResponses?.length === 0) return
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
  throw new Error(`footprint bench: ${url}/${created.rateTable.uuid} did not settle in 60 s`)
}

async function create(url: string, body: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body,
  })
  if (res.status !== 201)
    throw new Error(`footprint bench: POST ${url} answered ${res.status} ${await res.text()}`)
  return (await res.json()) as { accessToken: string; rateTable: { uuid: string } }
}

interface Figures {
  readyMs: number
  idle: number
  searches: number
  leads: number
}

async function run(env: Record<string, string>): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'footprint-'))
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, startProdArgs(root), {
    cwd: root,
    env: {
      ...startProdEnv(root),
      PATH: process.env.PATH ?? '',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_POINTS: '1000000',
      SANDBOX_RATE_LIMIT_POINTS: '1000000',
      // The whole load comes from one address: the server-wide lead ceiling (600 a minute) would refuse it.
      LEAD_CEILING_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let log = ''
      child.stdout?.on('data', (chunk: Buffer) => {
        log += chunk.toString()
        const found = /listening on (http:\/\/[^\s"]+)/.exec(log)
        if (found?.[1]) resolve(found[1])
      })
      child.once('exit', (code) => reject(new Error(`footprint bench: the server exited (${code})`)))
    })
    while ((await fetch(`${base}/healthz`).catch(() => undefined))?.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const readyMs = performance.now() - started
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const pid = child.pid as number
    const idle = rssMb(pid)
    const searches = await pool(SEARCHES, () => create(`${base}/api/offer-searches`, SEARCH))
    await pool(SEARCHES, (i) => settle(`${base}/api/offer-searches`, searches[i] as (typeof searches)[0]))
    const afterSearches = rssMb(pid)
    const leads = await pool(LEADS, () => create(`${base}/api/second-look`, JSON.stringify(secondLookLead())))
    await pool(LEADS, (i) => settle(`${base}/api/second-look`, leads[i] as (typeof leads)[0]))
    return { readyMs, idle, searches: afterSearches, leads: rssMb(pid) }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const rows: Array<[string, Figures]> = [['PGlite (no DATABASE_URL)', await run({})]]
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl) {
  const schema = `footprint_${randomUUID().replace(/-/g, '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query(`CREATE SCHEMA "${schema}"`)
  try {
    const url = new URL(databaseUrl)
    url.searchParams.set('options', `-c search_path=${schema}`)
    rows.push(['PostgreSQL (DATABASE_URL)', await run({ DATABASE_URL: url.href })])
  } finally {
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`)
    await admin.end()
  }
} else {
  console.log('(PostgreSQL row skipped: DATABASE_URL is not set)\n')
}

console.log(
  `| \`npm run start:prod\`, sandbox mode | Ready (\`/healthz\` 200) | RSS idle | RSS after ${SEARCHES} searches | RSS after ${LEADS.toLocaleString('en')} second-look leads |`,
)
console.log('|---|---:|---:|---:|---:|')
for (const [name, f] of rows) {
  console.log(`| ${name} | ${f.readyMs.toFixed(0)} ms | ${f.idle} MB | ${f.searches} MB | ${f.leads} MB |`)
}
const pglite = rows[0]?.[1] as Figures
console.log(
  `\nTargets (PGlite): ready within ${READY_TARGET_MS} ms, at most ${IDLE_TARGET_MB} MB until the first second-look lead (idle and after the searches).`,
)
const missed = pglite.readyMs > READY_TARGET_MS || Math.max(pglite.idle, pglite.searches) > IDLE_TARGET_MB
if (missed) console.error('footprint bench: the PGlite run missed a target')
process.exit(missed ? 1 : 0)
