/**
 * A replica that dies mid-lead, with real processes: a lead is created on replica A, whose first-look
 * partner takes 5 s to answer; A is SIGKILLed while the partner is still working. On PostgreSQL a second
 * replica B (same database, same Redis) takes the lead over; on PGlite, where one process owns the data
 * directory, B is the restart on the same DATA_DIR. The partner is asked again with the same
 * `Idempotency-Key` and the same lead, its approval lands, the visitor polling B sees the offer, and a
 * publisher's retry with the same key gets the live lead. Prints the takeover timeline.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN_HEADER, createdSearchSchema, WIDGET_HEADER } from '../../src/contract/bff.ts'
import { sampleLeads } from '../../src/partner-kit/index.ts'
import { announceSkip, unsetVariable } from '../support/skip-notice.ts'
import { scratchCwd, TSX_IMPORT } from '../support/source-process.ts'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 })

const root = fileURLToPath(new URL('../../', import.meta.url))
const SECRET = randomBytes(24).toString('hex')
const PARTNER_MS = 5_000
const databaseUrl = process.env.DATABASE_URL
const redisUrl = process.env.REDIS_URL

/** A first-look partner that answers each lead 5 s after it first saw its `Idempotency-Key`, repeats too. */
async function startSlowPartner() {
  const seen = new Map<string, number>()
  const received: Array<{ key: string | undefined; body: string; at: number }> = []
  const waiters: Array<{ count: number; resolve: () => void }> = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      const key = req.headers['idempotency-key'] as string | undefined
      const at = Date.now()
      received.push({ key, body, at })
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve()
      const first = seen.get(key ?? '') ?? at
      seen.set(key ?? '', first)
      const port = (server.address() as AddressInfo).port
      setTimeout(
        () => {
          if (res.destroyed) return
          res.setHeader('content-type', 'application/json')
          res.end(
            JSON.stringify({
              status: 'approved',
              lead_id: `slow-${key}`,
              offers: [
                {
                  rate: 21,
                  click_url: `http://127.0.0.1:${port}/click/1`,
                  name: 'Slow Lender',
                  display_name: 'Slow Lender',
                  offer_details: 'Fixed APR, no prepayment fee',
                  product_type: 'personal_loan',
                },
              ],
            }),
          )
        },
        Math.max(0, first + PARTNER_MS - at),
      )
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lead`,
    received,
    whenReceived: (count: number) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

interface Replica {
  url: string
  child: ChildProcess
  log: string[]
}

const children: ChildProcess[] = []

async function startReplica(env: Record<string, string>): Promise<Replica> {
  // One process (tsx's bin would run the server in a child that outlives a SIGKILL of its parent).
  const child = spawn(process.execPath, ['--import', TSX_IMPORT, join(root, 'src/server/start-server.ts')], {
    cwd: scratchCwd(),
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SESSION_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  const log: string[] = []
  const url = await new Promise<string>((resolve, reject) => {
    let text = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const lines = text.split('\n')
      text = lines.pop() ?? ''
      for (const line of lines) {
        log.push(line)
        const match = /BFF listening on (http:\/\/[^\s"]+)/.exec(line)
        if (match?.[1]) resolve(match[1])
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()))
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}: ${log.join('\n')}`)))
  })
  // Ready: the ledger is open (readiness says so), so a lease round has run. PGlite on disk opens in the
  // background; on a loaded 2-core machine that took over 30 s once. A replica that never gets ready says why.
  await vi
    .waitFor(
      async () => {
        const res = await fetch(`${url}/readyz`)
        expect(((await res.json()) as { status?: string }).status).toBe('ready')
      },
      { timeout: 60_000, interval: 100 },
    )
    .catch((error: unknown) => {
      throw new Error(`replica at ${url} not ready: ${String(error)}\nits log:\n${log.join('\n')}`)
    })
  return { url, child, log }
}

const lead = sampleLeads().find((sample) => sample.id === 'complete')?.lead
const submit = (url: string, key: string) =>
  fetch(`${url}/api/second-look`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WIDGET_HEADER]: '1', 'Idempotency-Key': key },
    body: JSON.stringify(lead),
  })
const poll = async (url: string, uuid: string, token: string) => {
  const res = await fetch(`${url}/api/second-look/${uuid}`, { headers: { [ACCESS_TOKEN_HEADER]: token } })
  return (await res.json()) as {
    offers: Array<{ financialInstitutionUuid?: string }>
    pendingResponses: unknown[]
  }
}

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  }
})

type Setup = {
  name: string
  available: boolean
  /** Env of both replicas, and whether B runs beside A (PostgreSQL) or replaces it (PGlite restart). */
  prepare(): Promise<{ env: Record<string, string>; beside: boolean; cleanup(): Promise<void> }>
}

const SETUPS: Setup[] = [
  {
    name: 'pglite (the replica restarts on its DATA_DIR)',
    available: true,
    async prepare() {
      const dir = mkdtempSync(join(tmpdir(), 'takeover-'))
      return {
        env: { DATA_DIR: dir },
        beside: false,
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      }
    },
  },
  {
    name: 'postgres (a second replica on the same database and Redis)',
    available: databaseUrl !== undefined && redisUrl !== undefined,
    async prepare() {
      // A database of its own: the server keeps its tables and its migrations record where production does.
      const database = `takeover_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`create database "${database}"`)
      const url = new URL(databaseUrl ?? '')
      url.pathname = `/${database}`
      return {
        env: { DATABASE_URL: url.toString(), REDIS_URL: redisUrl ?? '' },
        beside: true,
        async cleanup() {
          await admin.query(`drop database if exists "${database}" with (force)`)
          await admin.end()
        },
      }
    },
  },
]

if (!SETUPS[1]?.available) {
  announceSkip(
    'the PostgreSQL replica takeover test',
    unsetVariable('DATABASE_URL and REDIS_URL', 'postgres://postgres@127.0.0.1:5432/test'),
  )
}

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
})

describe.each(SETUPS.filter((s) => s.available))('a replica SIGKILLed mid-lead on $name', (setup) => {
  it('a live replica finishes the lead within its window: the partner is asked again with the same key, the visitor sees the offer, a retry gets the live lead', async () => {
    const partner = await startSlowPartner()
    const { env, beside, cleanup } = await setup.prepare()
    cleanups.push(async () => {
      await partner.close()
      await cleanup()
    })
    const dir = mkdtempSync(join(tmpdir(), 'takeover-partners-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const partnersFile = join(dir, 'partners.json')
    writeFileSync(
      partnersFile,
      JSON.stringify([
        { id: 'slow-lender', name: 'Slow Lender', tier: 'first', endpoint: partner.url, timeoutMs: 12_000 },
      ]),
    )
    const replicaEnv = { ...env, PARTNERS_FILE: partnersFile, LEAD_LEASE_MS: '3000' }
    const a = await startReplica(replicaEnv)
    const b = beside ? await startReplica(replicaEnv) : undefined

    const key = randomUUID()
    const t0 = Date.now()
    const created = await submit(a.url, key)
    expect(created.status).toBe(201)
    const { rateTable, accessToken } = createdSearchSchema.parse(await created.json())
    await partner.whenReceived(1)
    a.child.kill('SIGKILL')
    await once(a.child, 'exit')
    const killedAt = Date.now() - t0
    const replicaB = b ?? (await startReplica(replicaEnv))

    // The partner is asked again, with the same key and the same lead.
    await Promise.race([
      partner.whenReceived(2),
      once(replicaB.child, 'exit').then(() => {
        throw new Error(`replica B exited: ${replicaB.log.join('\n')}`)
      }),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no repeat: B's log:\n${replicaB.log.join('\n')}`)), 20_000),
      ),
    ])
    const [first, again] = partner.received
    expect(again?.key).toBe(first?.key)
    expect(again?.key).toMatch(/^[0-9a-f-]{36}$/)
    expect(again?.body).toBe(first?.body)
    const reaskedAt = (again?.at ?? 0) - t0

    // The visitor polling B sees the partner's offer, within the lead's window.
    let final: Awaited<ReturnType<typeof poll>> | undefined
    await vi.waitFor(
      async () => {
        final = await poll(replicaB.url, rateTable.uuid, accessToken)
        expect(final.pendingResponses).toEqual([])
      },
      { timeout: 30_000, interval: 200 },
    )
    const settledAt = Date.now() - t0
    const timeline = `A killed at ${killedAt} ms, partner asked again at ${reaskedAt} ms, settled on B at ${settledAt} ms; B's log:\n${replicaB.log.join('\n')}`
    expect(final?.offers, timeline).toHaveLength(1)
    expect(final?.offers[0]?.financialInstitutionUuid).toBe('slow-lender')
    expect(settledAt, timeline).toBeLessThan(12_000 + 2_000)
    expect(replicaB.log.join('\n')).toContain('taken over')

    // A publisher's retry with the same key gets the live lead, not a dead one.
    const retried = await submit(replicaB.url, key)
    expect(retried.status).toBe(201)
    expect(retried.headers.get('idempotent-replayed')).toBe('true')
    const replay = createdSearchSchema.parse(await retried.json())
    expect(replay.rateTable.uuid).toBe(rateTable.uuid)
    expect(replay.rateTable.offers).toHaveLength(1)
    // Asked twice in all: the approval that reached the dead socket, and the one after the takeover.
    expect(partner.received).toHaveLength(2)
    console.info(
      `[figure] takeover on ${setup.name}: A killed at ${killedAt} ms, partner asked again at ${reaskedAt} ms, offer on B at ${settledAt} ms (partner answers 5 s after first asked; lease 3 s)`,
    )
  })
})
