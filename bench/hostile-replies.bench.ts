/**
 * @module Issue 43, "No reply stalls the loop" (docs/decisions/0114-reply-cpu-budget.md): five partners
 * answer one lead at once, each with the legal 240 KB reply of 50 offers and 60-parameter links
 * (`test/marketplace/support/hostile-reply.ts`), while a client asks the same process's `/healthz` every
 * 5 ms. Reported: `/healthz` worst and p99 latency during the leads, and the longest event-loop stall
 * (perf_hooks `monitorEventLoopDelay`), against a 50 ms target. The partners are loopback servers in this
 * process serving a prepared body (sending it costs well under a millisecond); the client is in this process
 * too, so a request's latency includes any stall of the loop, which is what a visitor would wait.
 */

import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { openLedger } from '../src/ledger/index.ts'
import { createMarketplace, type PartnerRegistryEntry } from '../src/marketplace/index.ts'
import { hostileReply } from '../test/marketplace/support/hostile-reply.ts'
import { secondLookLead } from '../test/support/second-look-lead.ts'
import { benchApi } from './marketplace-api.ts'

const PARTNERS = 5
const LEADS = 3
const TARGET_MS = 50

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const body = Buffer.from(JSON.stringify(hostileReply()))
const partners = Array.from({ length: PARTNERS }, () =>
  createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
      res.end(body)
    })
  }),
)
const registry: PartnerRegistryEntry[] = []
for (const [i, server] of partners.entries()) {
  const base = await listen(server)
  registry.push({
    id: `hostile${i}`,
    name: `Hostile ${i}`,
    tier: 'first',
    endpoint: `${base}/lead`,
    timeoutMs: 11_000,
    scoreFactor: 1,
    enabled: true,
    // Judged as a production partner is: links must be https to a public host.
    display: {
      name: `Hostile ${i}`,
      logoUrl: 'https://cdn.lender.example.com/logo.png',
      productType: 'installment_loan',
      productDisplayName: 'Installment loan',
      copy: 'A partner with heavy replies.',
      disclaimer: 'Bench partner.',
    },
  })
}
const health = createServer((_req, res) => res.end('ok'))
const healthUrl = `${await listen(health)}/healthz`

const ledger = await openLedger({ inMemory: true, thread: 'worker' })
const marketplace = createMarketplace({
  config: { winnerPolicy: 'phase2', sandboxMode: true, deadlineMs: 12_000 },
  ledger,
  registry,
  secret: randomBytes(32).toString('hex'),
})
const api = benchApi(marketplace)

async function lead() {
  const res = await api.request('http://bench.test/second-look', {
    method: 'POST',
    body: JSON.stringify(secondLookLead()),
    headers: { 'content-type': 'application/json' },
  })
  const created = (await res.json()) as { rateTable: { uuid: string } }
  await marketplace.settled(created.rateTable.uuid)
}

try {
  await lead() // warm: the first lead compiles the finder and the ledger's statements
  const latencies: number[] = []
  let running = true
  const prober = (async () => {
    while (running) {
      const started = performance.now()
      await (await fetch(healthUrl)).text()
      latencies.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  const started = performance.now()
  for (let i = 0; i < LEADS; i++) await lead()
  const elapsed = performance.now() - started
  loop.disable()
  running = false
  await prober
  latencies.sort((a, b) => a - b)
  const worst = latencies.at(-1) ?? 0
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0
  const stall = loop.max / 1e6
  const ok = worst <= TARGET_MS && stall <= TARGET_MS
  console.log(
    `### ${PARTNERS} partners answering each lead at once with ${(body.length / 1024).toFixed(0)} KB (50 offers, 60-parameter links), ${LEADS} leads one after another\n`,
  )
  console.log('| Leads | Time | /healthz probes | p99 | Worst | Longest loop stall | Target | Result |')
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |')
  console.log(
    `| ${LEADS} | ${elapsed.toFixed(0)} ms | ${latencies.length} | ${p99.toFixed(1)} ms | ${worst.toFixed(1)} ms | ${stall.toFixed(1)} ms | ≤ ${TARGET_MS} ms | ${ok ? 'pass' : 'FAIL'} |`,
  )
  if (!ok) process.exitCode = 1
} finally {
  await marketplace.close()
  await ledger.close()
  for (const server of [...partners, health]) server.close()
}
