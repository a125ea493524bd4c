/**
 * @module The measure flood (docs/placements.md): one insurance search's access token, `FLOOD_CONNECTIONS`
 * clients sending `POST /api/offer-searches/:uuid/measure` back to back, each naming 50 made-up offers, for
 * `BENCH_FLOOD_SECONDS`, while second-look leads arrive at `LEADS_PER_SECOND`. Reported: the measures' answers,
 * lead intake (`POST /api/second-look` until its 201) p50 and p99 with the leads' statuses, and what the
 * placements report then counts as offers shown. The server is the one a publisher starts (`startServer`,
 * sandbox mode, its PGlite ledger in memory) in a process of its own; everything is on loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Pool } from 'undici'
import { secondLookLead } from '../test/support/second-look-lead.ts'
import { VISITOR_UA } from './visitor.ts'

const SELF = fileURLToPath(import.meta.url)
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10)
const FLOOD_CONNECTIONS = 8
const LEADS_PER_SECOND = 5
const REPORTS_TOKEN = 'bench-reports-token-0123456789abcdef'
const HEADERS = { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': VISITOR_UA }

if (process.argv[2] === 'server') {
  const { loadConfig } = await import('../src/server/config.ts')
  const { startServer } = await import('../src/server/start-server.ts')
  const running = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'error',
      REPORTS_TOKEN,
      DATA_DIR: process.argv[3] as string,
      MAX_CONNECTIONS_PER_IP: '100000',
    }),
    // In memory: here an on-disk PGlite ledger times out on a lead's write even when idle, flood or not.
    { staticRoot: '/nonexistent', secondLook: { inMemoryLedger: true } },
  )
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`)
} else {
  await drive()
}

function start(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, 'server', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split('\n').find((l) => l.startsWith('{"url"'))
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url, child })
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
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

async function flood(pool: Pool, uuid: string, token: string, until: number, statuses: Map<number, number>) {
  let round = 0
  while (performance.now() < until) {
    const shown = Array.from({ length: 50 }, (_, i) => `made-up-${process.pid}-${round}-${i}`)
    round++
    const res = await call(pool, `/api/offer-searches/${uuid}/measure`, {
      method: 'POST',
      headers: { 'x-offer-access-token': token },
      body: JSON.stringify({ shown }),
    })
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  }
}

async function leads(pool: Pool, until: number) {
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  const sent: Promise<void>[] = []
  const started = performance.now()
  for (let i = 0; started + (i * 1000) / LEADS_PER_SECOND < until; i++) {
    const due = started + (i * 1000) / LEADS_PER_SECOND
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
    sent.push(
      call(pool, '/api/second-look', { method: 'POST', body: JSON.stringify(secondLookLead()) }).then(
        (res) => {
          latencies.push(performance.now() - due)
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        },
      ),
    )
  }
  await Promise.all(sent)
  return { latencies: latencies.sort((a, b) => a - b), statuses }
}

async function drive() {
  const dataDir = mkdtempSync(join(tmpdir(), 'measure-flood-'))
  const { url, child } = await start(dataDir)
  const floodPool = new Pool(url, { connections: FLOOD_CONNECTIONS, pipelining: 1 })
  const leadPool = new Pool(url, { connections: 32, pipelining: 1 })
  try {
    // The ledger opens in the background: measured from when the server says it is ready.
    for (let ready = 0; ready !== 200; ) {
      ready = (await call(leadPool, '/readyz')).status
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const created = await call(leadPool, '/api/offer-searches', {
      method: 'POST',
      body: JSON.stringify({ placement: 'bench' }),
    })
    const { accessToken, rateTable } = JSON.parse(created.text) as {
      accessToken: string
      rateTable: { uuid: string }
    }
    const measures = new Map<number, number>()
    const until = performance.now() + FLOOD_SECONDS * 1000
    const [intake] = await Promise.all([
      leads(leadPool, until),
      ...Array.from({ length: FLOOD_CONNECTIONS }, () =>
        flood(floodPool, rateTable.uuid, accessToken, until, measures),
      ),
    ])
    // After the flood: leads ten seconds on, and the report once the last search events are written.
    const after = await leads(leadPool, performance.now() + 3_000)
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const report = await call(leadPool, `/api/reports/placements?from=${day(-1)}&to=${day(1)}`, {
      headers: { authorization: `Bearer ${REPORTS_TOKEN}` },
    })
    const rows =
      report.status === 200 ? (JSON.parse(report.text) as { rows: Array<{ offersShown: number }> }).rows : []
    const shown = rows.reduce((sum, row) => sum + row.offersShown, 0)
    const count = (m: Map<number, number>) => [...m].map(([s, n]) => `${n}×${s}`).join(', ')
    console.log(
      `### ${FLOOD_CONNECTIONS} clients flooding one search's measure (50 made-up offers each) for ${FLOOD_SECONDS} s, ${LEADS_PER_SECOND} leads/s\n`,
    )
    console.log(
      '| Measures answered | Leads during (statuses) | Lead p50 | Lead p99 | Leads in the 3 s after | After p99 | Report | Offers shown counted |',
    )
    console.log('| --- | --- | ---: | ---: | --- | ---: | --- | ---: |')
    console.log(
      `| ${count(measures)} | ${count(intake.statuses)} | ${percentile(intake.latencies, 50).toFixed(0)} ms | ${percentile(intake.latencies, 99).toFixed(0)} ms | ${count(after.statuses)} | ${percentile(after.latencies, 99).toFixed(0)} ms | ${report.status} | ${shown} |`,
    )
  } finally {
    await floodPool.close()
    await leadPool.close()
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}
