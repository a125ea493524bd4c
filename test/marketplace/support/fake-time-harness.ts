/**
 * @module A marketplace on fake time: partners are real loopback HTTP servers (one port each, so distinct
 * origins) that answer after a latency counted on the same fake clock the marketplace's windows, retries
 * and drain run on. Tests advance the clock; nothing sleeps.
 */

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Hono } from 'hono'
import type { Registry } from 'prom-client'
import { ACCESS_TOKEN_HEADER, WIDGET_HEADER } from '../../../src/contract/bff.ts'
import type { Ledger } from '../../../src/ledger/index.ts'
import {
  createMarketplace,
  type Marketplace,
  type MarketplaceConfig,
  type PartnerRegistryEntry,
} from '../../../src/marketplace/index.ts'
import type { FakeClock } from '../../support/fake-clock.ts'
import { captureLog } from './captured-log.ts'
import { marketplaceApi, SECRET } from './harness.ts'

export interface ScriptedPartner {
  id: string
  tier: 'first' | 'second'
  /** Fake ms from receiving the lead to answering. */
  latencyMs: number
  status: 'approved' | 'rejected'
  /** Bid of the single offer when approved. */
  rate?: number
  /** The offers when approved, instead of one at `rate`. */
  offers?: Array<{ rate: number; product_type: string; [field: string]: unknown }>
  timeoutMs?: number
  /** Its own reports token. */
  reportsToken?: string
}

export interface FakeTimeMarket {
  app: Hono
  marketplace: Marketplace
  logLines: string[]
  /** Resolves once the marketplace has logged `count` partner replies in all (timeouts included). */
  whenReplies(count: number): Promise<void>
  /** Leads each partner has received. */
  received(partnerId: string): number
  /** Resolves once `partnerId` has received `count` leads in all. */
  whenReceived(partnerId: string, count?: number): Promise<void>
  submit(body: unknown, headers?: Record<string, string>): Promise<Response>
  poll(uuid: string, token: string): Promise<Response>
  close(): Promise<void>
}

export async function startFakeTimeMarket(options: {
  ledger: Ledger
  clock: FakeClock
  partners: ScriptedPartner[]
  config?: Partial<MarketplaceConfig>
  /** Where the marketplace's metrics go (a private registry when absent). */
  metricsRegistry?: Registry
}): Promise<FakeTimeMarket> {
  const counts = new Map<string, number>()
  const waiters: Array<{ id: string; count: number; resolve: () => void }> = []
  const servers: Server[] = []
  const entries: PartnerRegistryEntry[] = []
  for (const spec of options.partners) {
    const server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const count = (counts.get(spec.id) ?? 0) + 1
        counts.set(spec.id, count)
        for (const w of waiters.filter((w) => w.id === spec.id && w.count <= count)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve()
        }
        options.clock.timers.setTimeout(() => {
          if (res.destroyed) return
          const reply =
            spec.status === 'approved'
              ? {
                  status: 'approved',
                  lead_id: `${spec.id}-${count}`,
                  offers: (spec.offers ?? [{ rate: spec.rate ?? 10, product_type: 'installment_loan' }]).map(
                    (offer, i) => ({ ...offer, click_url: `https://${spec.id}.example/click/${count}/${i}` }),
                  ),
                }
              : { status: 'rejected', lead_id: `${spec.id}-${count}`, reason: 'outside our credit box' }
          res.setHeader('content-type', 'application/json')
          res.end(JSON.stringify(reply))
        }, spec.latencyMs)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    servers.push(server)
    entries.push({
      id: spec.id,
      name: spec.id,
      tier: spec.tier,
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads`,
      timeoutMs: spec.timeoutMs ?? 12_000,
      scoreFactor: 1,
      enabled: true,
      reportsToken: spec.reportsToken,
      display: {
        name: spec.id,
        logoUrl: '',
        productType: 'installment_loan',
        productDisplayName: 'Installment loan',
        copy: '',
        disclaimer: '',
      },
    })
  }
  const log = captureLog()
  const marketplace = createMarketplace({
    config: { winnerPolicy: 'phase2', sandboxMode: true, ...options.config },
    ledger: options.ledger,
    registry: entries,
    secret: SECRET,
    logger: log.logger,
    timers: options.clock.timers,
    ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
  })
  const app = marketplaceApi(marketplace)
  return {
    app,
    marketplace,
    logLines: log.lines,
    whenReplies: log.whenReplies,
    received: (id) => counts.get(id) ?? 0,
    whenReceived: (id, count = 1) =>
      (counts.get(id) ?? 0) >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ id, count, resolve })),
    submit: async (body, headers = {}) =>
      app.request('http://bff.test/api/second-look', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', [WIDGET_HEADER]: '1', ...headers },
      }),
    poll: async (uuid, token) =>
      app.request(`http://bff.test/api/second-look/${uuid}`, { headers: { [ACCESS_TOKEN_HEADER]: token } }),
    async close() {
      await marketplace.close()
      for (const server of servers) {
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
    },
  }
}
