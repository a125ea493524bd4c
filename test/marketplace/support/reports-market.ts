/**
 * @module A marketplace whose partners read their own reports, for the report and conversion suites: real
 * loopback partners, each with its own reports token, on a driver's ledger, started before the calling
 * suite's tests and closed after them; with the requests those suites make (a GET with a bearer token, a
 * conversion postback, a lead settled through its auction).
 */
import type { Hono } from 'hono'
import { afterAll, beforeAll } from 'vitest'
import type { Ledger } from '../../../src/ledger/index.ts'
import type { Marketplace } from '../../../src/marketplace/index.ts'
import {
  type SimulatedPartnerSpec,
  type SimulatedPartners,
  startSimulatedPartners,
} from '../../../src/partner-kit/index.ts'
import type { LedgerDriver } from '../../ledger/support/ledger-drivers.ts'
import { makeLead, testMarketplace } from './harness.ts'

/** The operator's token: it reads every partner's report. */
export const OPERATOR_TOKEN = 'operator-reports-token-0123456789'

export interface ReportsMarket {
  ledger: Ledger
  partners: SimulatedPartners
  marketplace: Marketplace
  app: Hono
  /** GETs a URL's path and query (an absolute pixel or click URL too), with a bearer token if given. */
  get(url: string, token?: string): Promise<Response>
  /** POSTs a conversion (a string as it is, anything else as JSON), with a bearer token if given. */
  postConversion(body: unknown, token?: string): Promise<Response>
  /** Submits `lead`, waits for its auction and polls the final table: the lead's id and its offers. */
  settle<Offer>(lead?: unknown): Promise<{ leadId: string; offers: Offer[] }>
}

const bearer = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {})

/**
 * Call in a suite; its tests read the returned market (filled in before them). `tokens` maps a partner id
 * to its own reports token.
 */
export function reportsMarketAround(
  driver: LedgerDriver,
  options: { partners: SimulatedPartnerSpec[]; tokens: Record<string, string> },
): ReportsMarket {
  const market = {} as ReportsMarket
  beforeAll(async () => {
    // Kept as they start, so a start that fails half way still closes what did start.
    const ledger = await driver.open()
    market.ledger = ledger
    const partners = await startSimulatedPartners({ partners: options.partners })
    market.partners = partners
    const { marketplace, app } = testMarketplace({
      config: { winnerPolicy: 'phase2', sandboxMode: true, deadlineMs: 2_000, reportsToken: OPERATOR_TOKEN },
      ledger,
      registry: partners.entries.map((e) => ({ ...e, reportsToken: options.tokens[e.id] })),
    })
    Object.assign(market, {
      ledger,
      partners,
      marketplace,
      app,
      async get(url, token) {
        const u = new URL(url, 'http://bff.test')
        return app.request(u.pathname + u.search, { headers: bearer(token) })
      },
      postConversion: async (body, token) =>
        app.request('http://bff.test/api/conversions', {
          method: 'POST',
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json', ...bearer(token) },
        }),
      async settle<Offer>(lead: unknown = makeLead()) {
        const res = await app.request('http://bff.test/api/second-look', {
          method: 'POST',
          body: JSON.stringify(lead),
          headers: { 'content-type': 'application/json' },
        })
        const created = (await res.json()) as {
          accessToken: string
          rateTable: { uuid: string; leadUuid: string }
        }
        await marketplace.settled(created.rateTable.uuid)
        const poll = await app.request(`http://bff.test/api/second-look/${created.rateTable.uuid}`, {
          headers: { 'X-Offer-Access-Token': created.accessToken },
        })
        const table = (await poll.json()) as { offers: Offer[] }
        return { leadId: created.rateTable.leadUuid, offers: table.offers }
      },
    } satisfies ReportsMarket)
  }, 30_000)
  afterAll(async () => {
    await market.marketplace?.close()
    await market.partners?.close()
    await market.ledger?.close()
  })
  return market
}
