/**
 * @module `npm run bench -- first-start`: the built server (`node dist/server/server/start-server.js`, sandbox mode) on an
 * empty DATA_DIR, as a process, with the resident memory of its process tree (the process and any children)
 * sampled every 20 ms: when it listens, when `/readyz` first says ready (the ledger open), when the first
 * second-look lead is created, the peak, and the idle memory after, before and after a few leads. Exits
 * non-zero when the idle memory passes 200 MB or the first lead is not created within 2 s of starting to try.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { secondLookLead } from '../test/support/second-look-lead.ts'
import { startProdArgs, startProdEnv } from './start-prod.ts'
import { VISITOR_UA } from './visitor.ts'

const IDLE_TARGET_MB = 200
const FIRST_LEAD_TARGET_MS = 2_000
const LEADS = 20

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const serverFile = join(root, 'dist/server/server/start-server.js')
const templateFile = join(root, 'dist/server/ledger/pglite-template.tar.gz')
if (!existsSync(serverFile)) {
  console.error('first-start bench: dist/server/server/start-server.js is missing; run npm run build first')
  process.exit(1)
}

const headers = { 'content-type': 'application/json', 'x-offer-widget': 'bench', 'user-agent': VISITOR_UA }
const LEAD = JSON.stringify(secondLookLead())
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** VmRSS of `pid` and every process under it, in MB (0 for one that just ended). */
function treeRssMb(pid: number): number {
  let kb = 0
  const visit = (id: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0)
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const children = readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim()
        for (const child of children ? children.split(/\s+/) : []) visit(Number(child))
      }
    } catch {
      // Gone between listing and reading.
    }
  }
  visit(pid)
  return Math.round(kb / 1024)
}

async function postLead(base: string): Promise<number> {
  const res = await fetch(`${base}/api/second-look`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: LEAD,
  })
  await res.arrayBuffer()
  return res.status
}

const dataDir = mkdtempSync(join(tmpdir(), 'first-start-'))
const started = performance.now()
const since = () => Math.round(performance.now() - started)
const child: ChildProcess = spawn(process.execPath, startProdArgs(root), {
  cwd: root,
  env: {
    ...startProdEnv(root),
    PATH: process.env.PATH ?? '',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const pid = child.pid as number
let peak = 0
const sampler = setInterval(() => {
  peak = Math.max(peak, treeRssMb(pid))
}, 20)
try {
  const base = await new Promise<string>((resolve, reject) => {
    let log = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString()
      const found = /listening on (http:\/\/[^\s"]+)/.exec(log)
      if (found?.[1]) resolve(found[1])
    })
    child.once('exit', (code) => reject(new Error(`first-start bench: the server exited (${code})`)))
  })
  const listeningMs = since()
  // A lead sent as soon as the port answers: a 503 with Retry-After while the ledger opens, never a wait.
  const tried = performance.now()
  const early = await postLead(base)
  const earlyMs = Math.round(performance.now() - tried)
  // `status: 'ready'`, not only 200: the replica answers (200, degraded) while the ledger still opens.
  while ((await readyzStatus(base)) !== 'ready') await pause(20)
  const readyMs = since()
  const firstLead = await postLead(base)
  const firstLeadMs = since()
  await pause(3_000)
  const idle = treeRssMb(pid)
  for (let i = 0; i < LEADS; i++) {
    const status = await postLead(base)
    if (status !== 201) throw new Error(`first-start bench: a lead answered ${status}`)
  }
  // The simulated partners' windows (12 s) end and the leads settle.
  await pause(15_000)
  const afterLeads = treeRssMb(pid)
  clearInterval(sampler)
  const templateMb = existsSync(templateFile) ? (statSync(templateFile).size / 2 ** 20).toFixed(1) : 'none'

  console.log(
    '| `npm run start:prod`, empty DATA_DIR | Listening | Lead at once | Ready (`/readyz` 200) | First lead 201 | Peak RSS (tree) | Idle RSS | After ' +
      `${LEADS} leads | Template |`,
  )
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|')
  console.log(
    `| PGlite | ${listeningMs} ms | ${early} in ${earlyMs} ms | ${readyMs} ms | ${firstLead} at ${firstLeadMs} ms | ${peak} MB | ${idle} MB | ${afterLeads} MB | ${templateMb} MiB |`,
  )
  const missed = [
    idle > IDLE_TARGET_MB || afterLeads > IDLE_TARGET_MB ? `idle RSS over ${IDLE_TARGET_MB} MB` : '',
    firstLead !== 201 || firstLeadMs - readyMs > FIRST_LEAD_TARGET_MS ? 'first lead not created at once' : '',
  ].filter(Boolean)
  console.log(
    `\nTargets: idle RSS ≤ ${IDLE_TARGET_MB} MB; the first lead after ready created within ${FIRST_LEAD_TARGET_MS} ms.`,
  )
  if (missed.length > 0) {
    console.log(`missed: ${missed.join('; ')}`)
    process.exitCode = 1
  }
} finally {
  clearInterval(sampler)
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}

/** What `/readyz` says (`ready`, `degraded`, `not_ready`), or `down` while the port does not answer. */
async function readyzStatus(base: string): Promise<string> {
  const body = await fetch(`${base}/readyz`)
    .then((r) => r.json() as Promise<{ status?: string }>)
    .catch(() => undefined)
  return body?.status ?? 'down'
}
