/**
 * @module Two in-process replicas on one PostgreSQL schema, each reaching it through a TCP proxy of its own
 * (test/support/tcp-fault-proxy.ts) that a test cuts and restores, on real time; and a slow partner that
 * either replays a repeated `Idempotency-Key` (as docs/partner-interface.md#recognising-a-repeat asks) or
 * recomputes it. Each replica's lease calls are recorded with their times, for the timelines the fault tests
 * print.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Hono } from 'hono'
import pg from 'pg'
import { Agent } from 'undici'
import { WIDGET_HEADER } from '../../../src/contract/bff.ts'
import { type Ledger, openLedger } from '../../../src/ledger/index.ts'
import {
  createMarketplace,
  type Marketplace,
  type PartnerRegistryEntry,
} from '../../../src/marketplace/index.ts'
import { startTcpProxy, type TcpProxy } from '../../support/tcp-fault-proxy.ts'
import { captureLog } from './captured-log.ts'
import { marketplaceApi, SECRET } from './harness.ts'

export interface SlowPartner {
  entry: PartnerRegistryEntry
  /** Every lead it was sent: its `Idempotency-Key` and when (epoch ms). */
  received: Array<{ key: string; at: number }>
  whenReceived(count: number): Promise<void>
  close(): Promise<void>
}

/**
 * A first-look partner that approves each lead `latencyMs` after it is sent it (`recompute`), or after it
 * was first sent that key (`replay`); a request whose connection closed meanwhile gets nothing.
 */
export async function startSlowPartner(
  id: string,
  options: { latencyMs: number; repeats: 'replay' | 'recompute' },
): Promise<SlowPartner> {
  const received: SlowPartner['received'] = []
  const firstSeen = new Map<string, number>()
  const waiters: Array<{ count: number; resolve: () => void }> = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const key = String(req.headers['idempotency-key'])
      const at = Date.now()
      received.push({ key, at })
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve()
      if (!firstSeen.has(key)) firstSeen.set(key, at)
      const start = options.repeats === 'replay' ? (firstSeen.get(key) ?? at) : at
      setTimeout(
        () => {
          if (res.destroyed) return
          res.setHeader('content-type', 'application/json')
          res.end(
            JSON.stringify({
              status: 'approved',
              lead_id: `${id}-${key}`,
              offers: [
                { rate: 12, product_type: 'installment_loan', click_url: `https://${id}.example/click/1` },
              ],
            }),
          )
        },
        Math.max(0, start + options.latencyMs - at),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    entry: {
      id,
      name: id,
      tier: 'first',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads`,
      timeoutMs: 12_000,
      scoreFactor: 1,
      enabled: true,
      display: {
        name: id,
        logoUrl: '',
        productType: 'installment_loan',
        productDisplayName: 'Installment loan',
        copy: '',
        disclaimer: '',
      },
    },
    received,
    whenReceived: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A lease call a replica made, when it ended (epoch ms), and what it returned (lead ids) or that it failed. */
interface LeaseCall {
  call: 'renewLeases' | 'claimLeads' | 'ping'
  at: number
  ids?: string[]
  failed?: true
}

export interface Replica {
  name: string
  proxy: TcpProxy
  ledger: Ledger
  marketplace: Marketplace
  app: Hono
  calls: LeaseCall[]
  logLines: string[]
  /** Its partner calls in flight: destroying it is what a process's death does to them. */
  dispatcher: Agent
  submit(body: unknown): Promise<Response>
  close(): Promise<void>
}

/** The shared schema, created by the first replica's ledger and dropped by `dropSchema`. */
export function newSchema(): string {
  return `test_${randomBytes(6).toString('hex')}`
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query(`drop schema if exists "${schema}" cascade`)
  await admin.end()
}

/** A replica (marketplace, lease keeper, ledger) reaching `schema` through a proxy of its own. */
export async function startReplica(
  name: string,
  options: { databaseUrl: string; schema: string; registry: PartnerRegistryEntry[]; leaseMs: number },
): Promise<Replica> {
  const target = new URL(options.databaseUrl)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const opened = await openLedger({
    databaseUrl: proxy.urlFor(options.databaseUrl),
    schema: options.schema,
    maxConnections: 4,
  })
  const calls: LeaseCall[] = []
  const watched =
    (call: LeaseCall['call']) =>
    async (...args: unknown[]) => {
      const method = opened[call] as (...a: unknown[]) => Promise<unknown>
      try {
        const result = await method.apply(opened, args)
        const ids =
          call === 'renewLeases'
            ? (result as string[])
            : call === 'claimLeads'
              ? (result as Array<{ lead: { id: string } }>).map((c) => c.lead.id)
              : undefined
        calls.push({ call, at: Date.now(), ...(ids ? { ids } : {}) })
        return result
      } catch (error) {
        calls.push({ call, at: Date.now(), failed: true })
        throw error
      }
    }
  const overrides: Record<string, unknown> = {
    renewLeases: watched('renewLeases'),
    claimLeads: watched('claimLeads'),
    ping: watched('ping'),
  }
  const ledger = new Proxy(opened, {
    get: (target, key, receiver) =>
      typeof key === 'string' && key in overrides ? overrides[key] : Reflect.get(target, key, receiver),
  })
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 })
  const log = captureLog()
  const marketplace = createMarketplace({
    config: { winnerPolicy: 'phase2', sandboxMode: true, leaseMs: options.leaseMs },
    ledger,
    registry: options.registry,
    secret: SECRET,
    logger: log.logger,
    dispatcher,
  })
  const app = marketplaceApi(marketplace)
  return {
    name,
    proxy,
    ledger,
    marketplace,
    app,
    calls,
    logLines: log.lines,
    dispatcher,
    submit: async (body) =>
      app.request('http://bff.test/api/second-look', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', [WIDGET_HEADER]: '1' },
      }),
    async close() {
      await marketplace.close()
      proxy.restore()
      await dispatcher.destroy()
      await opened.close()
      await proxy.close()
    },
  }
}
