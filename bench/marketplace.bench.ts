/**
 * @module Marketplace benchmarks, bounded in time and on loopback only.
 * 1. Fan-out: 50 partners with latencies spread up to 11 s plus 5 past 12 s; the search must complete at
 *    the 12 s deadline within 50 ms. Beside it, the same 50 without the late ones: the search must complete
 *    at most 10 ms after the slowest in-window partner.
 *    The partners run in a child process, as remote partners would: their own work never delays ours.
 * 2. Ledger: leads written per second with 10 partners each (every request, reply, offer and the
 *    auction's result), on PGlite in memory and on disk, and on PostgreSQL when DATABASE_URL is set.
 * 3. Polls: 50 pollers of one pending search, each polling again as soon as answered, for 5 s: polls
 *    served per second, and ledger reads per second (at most one per search per second).
 */
import { fork } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { type Ledger, openLedger, type ReplyRecord, type SentRequest } from '../src/ledger/index.ts'
import { createMarketplace, type PartnerRegistryEntry } from '../src/marketplace/index.ts'
import { type SimulatedPartnerSpec, startSimulatedPartners } from '../src/partner-kit/index.ts'
import { secondLookLead } from '../test/support/second-look-lead.ts'
import { benchApi } from './marketplace-api.ts'

const DEADLINE_MS = 12_000

/** The marketplace under test: the bench's partners, every token accepted, one fixed visitor. */
function benchMarketplace(
  ledger: Ledger,
  registry: PartnerRegistryEntry[],
  logger?: Parameters<typeof createMarketplace>[0]['logger'],
) {
  return createMarketplace({
    config: { winnerPolicy: 'phase2', sandboxMode: true, deadlineMs: DEADLINE_MS },
    ledger,
    registry,
    secret: randomBytes(32).toString('hex'),
    ...(logger && { logger }),
  })
}
const failures: string[] = []

/**
 * One search against real loopback partners. The process is warmed first with three leads at 1 ms
 * latencies on the same marketplace, as a serving process is; then the partners take their real latencies.
 */
type PartnerMessage = { type: 'ready'; entries: PartnerRegistryEntry[] } | { type: 'ok' }

/** The simulated partners in a child process, driven over IPC. */
async function partnerProcess(specs: SimulatedPartnerSpec[]) {
  const child = fork(new URL(import.meta.url).pathname, ['--serve-partners'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = () =>
    new Promise<PartnerMessage>((resolve) => child.once('message', (m) => resolve(m as PartnerMessage)))
  child.send({ type: 'start', specs })
  const ready = await next()
  if (ready.type !== 'ready') throw new Error('partner process did not start')
  return {
    entries: ready.entries,
    async setLatencies(latencies: number[]) {
      child.send({ type: 'latencies', latencies })
      await next()
    },
    async close() {
      child.send({ type: 'close' })
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/** Child side: serve the partners until told to close. */
function servePartners() {
  let specs: SimulatedPartnerSpec[] = []
  let close = async () => {}
  process.on(
    'message',
    async (message: { type: string; specs?: SimulatedPartnerSpec[]; latencies?: number[] }) => {
      if (message.type === 'start' && message.specs) {
        specs = message.specs
        const partners = await startSimulatedPartners({ partners: specs })
        close = partners.close
        process.send?.({ type: 'ready', entries: partners.entries })
      } else if (message.type === 'latencies' && message.latencies) {
        // The server reads each spec's latency per request, so changing it in place takes effect at once.
        specs.forEach((spec, i) => {
          spec.latencyMs = message.latencies?.[i] ?? spec.latencyMs
        })
        process.send?.({ type: 'ok' })
      } else if (message.type === 'close') {
        await close()
        process.exit(0)
      }
    },
  )
}

/**
 * Searches against real loopback partners, one at a time. The process is warmed first with five leads at
 * 1 ms latencies on the same marketplace, as a serving process is; then the partners take their real
 * latencies and `runs` searches are measured; the median run (by marketplace overhead) is reported.
 */
async function fanOutRun(name: string, specs: SimulatedPartnerSpec[], slowestInWindow: number, runs = 1) {
  const latencies = specs.map((spec) => spec.latencyMs)
  const partners = await partnerProcess(specs.map((spec) => ({ ...spec, latencyMs: 1 })))
  const ledger = await openLedger({ inMemory: true })
  let lastReplyAt = 0
  let lastLatency = 0
  const replies = new Writable({
    write(chunk, _encoding, callback) {
      const line = JSON.parse(String(chunk)) as { msg?: string; status?: string; latencyMs?: number }
      if (line.msg === 'partner reply' && line.status !== 'timeout') {
        lastReplyAt = performance.now()
        lastLatency = line.latencyMs ?? 0
      }
      callback()
    },
  })
  const marketplace = benchMarketplace(ledger, partners.entries, pino({ level: 'info' }, replies))
  const api = benchApi(marketplace)
  const search = async () => {
    const started = performance.now()
    const res = await api.request('http://bench.test/second-look', {
      method: 'POST',
      body: JSON.stringify(secondLookLead()),
      headers: { 'content-type': 'application/json' },
    })
    const created = (await res.json()) as { rateTable: { uuid: string } }
    const accepted = performance.now() - started
    await marketplace.settled(created.rateTable.uuid)
    const settledAt = performance.now()
    return { accepted, completed: settledAt - started, settledAt, uuid: created.rateTable.uuid }
  }
  try {
    for (let i = 0; i < 5; i++) await search()
    await partners.setLatencies(latencies)
    const measured = []
    for (let i = 0; i < runs; i++) {
      const run = await search()
      measured.push({
        ...run,
        afterLastReply: run.settledAt - lastReplyAt,
        lastLatency,
        overhead: run.completed - lastLatency,
      })
    }
    measured.sort((a, b) => a.overhead - b.overhead)
    const median = measured[Math.floor(measured.length / 2)] as (typeof measured)[number]
    return {
      name,
      partners: specs.length,
      runs,
      ...median,
      spread: measured.map((m) => m.overhead.toFixed(1)).join(', '),
      slowestInWindow,
    }
  } finally {
    await marketplace.close()
    await partners.close()
    await ledger.close()
  }
}

async function benchFanOut() {
  const spread: SimulatedPartnerSpec[] = Array.from({ length: 50 }, (_, i) => ({
    id: `p${String(i).padStart(2, '0')}`,
    name: `Partner ${i}`,
    tier: 'first',
    behavior: 'approve',
    latencyMs: Math.round(((i + 1) * 11_000) / 50),
    bidMultiplier: 1 + i / 100,
  }))
  const late: SimulatedPartnerSpec[] = Array.from({ length: 5 }, (_, i) => ({
    id: `late${i}`,
    name: `Late ${i}`,
    tier: 'first',
    behavior: 'approve',
    latencyMs: 12_500 + i * 500,
  }))
  // One after the other: two searches in one process would delay each other's timers and writes.
  const withLate = await fanOutRun(
    '50 spread to 11 s + 5 past 12 s',
    [...spread.map((s) => ({ ...s })), ...late],
    11_000,
  )
  const inWindow = await fanOutRun('50 spread to 11 s (median of 3)', spread, 11_000, 3)
  const lateMiss = withLate.completed - DEADLINE_MS
  // The slowest partner as our HTTP client saw it (request written to reply validated): what the
  // marketplace adds is everything else, intake before the call and the settle after it.
  const overhead = inWindow.overhead
  const endToEnd = inWindow.completed - inWindow.slowestInWindow
  const lateOk = Math.abs(lateMiss) <= 50
  const overheadOk = overhead >= 0 && overhead <= 10
  if (!lateOk)
    failures.push(`search with late partners completed ${lateMiss.toFixed(1)} ms from the deadline`)
  if (!overheadOk) failures.push(`overhead over the slowest in-window partner was ${overhead.toFixed(1)} ms`)
  console.log(
    '### Fan-out (real HTTP on loopback, partners in a child process, PGlite in memory, warmed process)\n',
  )
  console.log(
    '| Run | Partners | 201 after | Settled after | Slowest in-window call | Settle after its reply | Target | Measured | Result |',
  )
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |')
  console.log(
    `| ${withLate.name} | ${withLate.partners} | ${ms(withLate.accepted)} | ${ms(withLate.completed)} | ${ms(withLate.lastLatency)} | - | settled at the 12 s deadline ±50 ms | ${signed(lateMiss)} ms | ${lateOk ? 'pass' : 'FAIL'} |`,
  )
  console.log(
    `| ${inWindow.name} | ${inWindow.partners} | ${ms(inWindow.accepted)} | ${ms(inWindow.completed)} | ${ms(inWindow.lastLatency)} | ${ms(inWindow.afterLastReply)} | overhead over the slowest partner ≤10 ms | ${signed(overhead)} ms | ${overheadOk ? 'pass' : 'FAIL'} |`,
  )
  console.log(
    `\nSlowest call = request written to reply validated, as the marketplace's HTTP client measured it for the 11 000 ms partner. Overhead = settled − slowest call (intake before the call, settle after it). Settled − 11 000 ms nominal: ${signed(endToEnd)} ms, the rest being loopback HTTP and the simulated partner process. Overheads of the 3 runs: ${inWindow.spread} ms.`,
  )
  console.log()
}

async function benchLedger(name: string, ledger: Ledger, seconds: number) {
  const partnersPerLead = 10
  const concurrency = 256
  const endAt = performance.now() + seconds * 1000
  let leads = 0
  const started = performance.now()
  async function worker() {
    while (performance.now() < endAt) {
      await oneLead(ledger, partnersPerLead)
      leads++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsed = (performance.now() - started) / 1000
  return { name, leads, rate: leads / elapsed, elapsed }
}

/** One lead as the marketplace writes it: 10 requests, 9 replies, the last reply with the settle. */
async function oneLead(ledger: Ledger, partners: number) {
  const now = new Date()
  const leadId = randomUUID()
  const requests: SentRequest[] = Array.from({ length: partners }, (_, i) => ({
    id: randomUUID(),
    partnerId: `partner-${i}`,
    tier: 'first',
    sentAt: now,
  }))
  await ledger.createLead(
    {
      id: leadId,
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      createdAt: now,
      deadlineAt: new Date(now.getTime() + DEADLINE_MS),
    },
    requests,
  )
  const replies: ReplyRecord[] = requests.map((request, i) => ({
    requestId: request.id,
    leadId,
    partnerId: request.partnerId,
    status: i % 2 === 0 ? 'approved' : 'rejected',
    reason: i % 2 === 0 ? undefined : 'outside our credit box',
    httpStatus: 200,
    partnerLeadId: `p-${i}`,
    // As the marketplace writes it: the keyed hash of the partner's raw lead_id (43 base64url characters).
    partnerLeadIdHash: `${leadId.replace(/-/g, '')}${i}`.padEnd(43, 'h'),
    latencyMs: 100 + i,
    repliedAt: now,
    offers:
      i % 2 === 0
        ? ['installment_loan', 'debt_relief'].map((productType, position) => ({
            id: randomUUID(),
            position,
            rate: 10 + i + position,
            productType,
            recommendationScore: 10 + i + position,
            clickUrl: `https://partner.example.com/click/${i}/${position}`,
          }))
        : [],
  }))
  const last = replies.pop() as ReplyRecord
  await Promise.all(replies.map((reply) => ledger.recordReply(reply)))
  const winners = replies.flatMap((r) => r.offers).slice(0, 2)
  await ledger.closeTier(
    [last],
    {
      kind: 'settle',
      winners: winners.map((o, i) => ({ offerId: o.id, rank: i + 1 })),
      // Every offer gets its outcome in the settle, as a real auction writes it.
      outcomes: [...replies, last].flatMap((r) =>
        r.offers.map((o) => ({
          offerId: o.id,
          outcome: winners.includes(o) ? 'won' : 'outbid',
          bidRank: 1,
          gapCents: 0,
        })),
      ),
      completedAt: new Date(),
    },
    leadId,
  )
}

async function benchLedgers() {
  const rows: Array<Awaited<ReturnType<typeof benchLedger>> & { target: string; ok?: boolean }> = []
  const memory = await openLedger({ inMemory: true })
  try {
    const r = await benchLedger('PGlite (in memory)', memory, 4)
    rows.push({ ...r, target: '≥ 500 leads/s', ok: r.rate >= 500 })
  } finally {
    await memory.close()
  }
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-'))
  const disk = await openLedger({ dataDir: dir })
  try {
    const r = await benchLedger('PGlite (files, the default)', disk, 4)
    rows.push({ ...r, target: '≥ 500 leads/s', ok: r.rate >= 500 })
  } finally {
    await disk.close()
    rmSync(dir, { recursive: true, force: true })
  }
  const databaseUrl = process.env.DATABASE_URL
  if (databaseUrl) {
    const pg = await openLedger({
      databaseUrl,
      schema: `bench_${randomBytes(6).toString('hex')}`,
      dropSchemaOnClose: true,
      maxConnections: 16,
    })
    try {
      rows.push({ ...(await benchLedger('PostgreSQL', pg, 4)), target: 'figure only' })
    } finally {
      await pg.close()
    }
  }
  for (const row of rows) if (row.ok === false) failures.push(`${row.name}: ${row.rate.toFixed(0)} leads/s`)
  console.log(
    '### Ledger writes (10 partners per lead: 10 requests, 10 replies, 10 offers, settle; 256 leads in flight)\n',
  )
  console.log('| Ledger | Leads | Seconds | Leads/s | Rows/s | Target | Result |')
  console.log('| --- | ---: | ---: | ---: | ---: | --- | --- |')
  for (const row of rows) {
    // Per lead: 1 lead + 10 requests + 10 offers rows inserted, 10 request updates, 2 offer updates, 1 lead update.
    console.log(
      `| ${row.name} | ${row.leads} | ${row.elapsed.toFixed(1)} | ${row.rate.toFixed(0)} | ${(row.rate * 34).toFixed(0)} | ${row.target} | ${row.ok === undefined ? '-' : row.ok ? 'pass' : 'FAIL'} |`,
    )
  }
  if (!databaseUrl)
    console.log(
      '\nPostgreSQL not measured: DATABASE_URL is unset (postgres://postgres@127.0.0.1:5432/test works here).',
    )
  console.log()
}

async function benchPolls() {
  const seconds = 5
  const partners = await startSimulatedPartners({
    partners: [{ id: 'hold', name: 'Hold', tier: 'first', behavior: 'approve', latencyMs: 11_000 }],
  })
  const ledger = await openLedger({ inMemory: true })
  let reads = 0
  const getSearch = ledger.getSearch
  ledger.getSearch = (uuid) => {
    reads++
    return getSearch(uuid)
  }
  const marketplace = benchMarketplace(ledger, partners.entries)
  const api = benchApi(marketplace)
  try {
    const res = await api.request('http://bench.test/second-look', {
      method: 'POST',
      body: JSON.stringify(secondLookLead()),
      headers: { 'content-type': 'application/json' },
    })
    const { accessToken, rateTable } = (await res.json()) as {
      accessToken: string
      rateTable: { uuid: string }
    }
    reads = 0
    let polls = 0
    const endAt = performance.now() + seconds * 1000
    const started = performance.now()
    const poller = async () => {
      while (performance.now() < endAt) {
        const answer = await api.request(`http://bench.test/second-look/${rateTable.uuid}`, {
          headers: { 'x-offer-access-token': accessToken },
        })
        if (answer.status !== 200) throw new Error(`poll answered ${answer.status}`)
        await answer.arrayBuffer()
        polls++
      }
    }
    await Promise.all(Array.from({ length: 50 }, poller))
    const elapsed = (performance.now() - started) / 1000
    const readsPerSecond = reads / elapsed
    // One read per started second, plus the one in flight at the end.
    const ok = reads <= Math.ceil(elapsed) + 1
    if (!ok) failures.push(`polls: ${reads} ledger reads in ${elapsed.toFixed(1)} s for one search`)
    console.log('### Second-look polls (50 pollers of one pending search, closed loop, PGlite in memory)\n')
    console.log('| Polls | Seconds | Polls/s | Ledger reads | Ledger reads/s | Target | Result |')
    console.log('| ---: | ---: | ---: | ---: | ---: | --- | --- |')
    console.log(
      `| ${polls} | ${elapsed.toFixed(1)} | ${(polls / elapsed).toFixed(0)} | ${reads} | ${readsPerSecond.toFixed(2)} | ≤ 1 read per search per second | ${ok ? 'pass' : 'FAIL'} |`,
    )
    console.log()
  } finally {
    await marketplace.close()
    await partners.close()
    await ledger.close()
  }
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`
}

function signed(ms: number): string {
  return `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`
}

if (process.argv.includes('--serve-partners')) {
  servePartners()
} else {
  // Fan-out first: the ledger runs leave garbage whose collection would land inside the timed searches.
  // --ledger-only / --polls-only run one part.
  const only = process.argv.find((arg) => arg.endsWith('-only'))
  if (only === undefined) await benchFanOut()
  if (only === undefined || only === '--ledger-only') await benchLedgers()
  if (only === undefined || only === '--polls-only') await benchPolls()
  if (failures.length > 0) {
    console.log(`Targets missed:\n${failures.map((f) => `- ${f}`).join('\n')}`)
    process.exit(1)
  }
}
