/**
 * @module Issue 30 end to end, on both ledgers: partners on real sockets reply with the lead's PII in the text
 * fields and links of their offers, in `lead_id` and in `reason`, and (a partner registered for production,
 * served over https with a throwaway CA) with links to the visitor's own machine or network. Those offers are dropped
 * whole: nothing of them is in any ledger table, `offersDropped` counts them, and the rate table the widget
 * polls carries only the clean offer.
 */
import { createServer as createHttpsServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { type SQL, sql } from 'drizzle-orm'
import type { Hono } from 'hono'
import pino from 'pino'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Lead } from '../../src/contract/partner.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { sandboxConsentTexts } from '../../src/marketplace/consent/consent-texts.ts'
import { createPiiFinder } from '../../src/marketplace/fan-out/pii-finder.ts'
import {
  createMarketplace,
  type Marketplace,
  type PartnerRegistryEntry,
} from '../../src/marketplace/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { type LoopbackPartner, startLoopbackPartner } from '../partner-kit/support/loopback-partner.ts'
import { makeLocalTls } from '../support/local-https.ts'
import { makeKnownLead, marketplaceApi, SECRET, settledLeadThrough } from './support/harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const LEAD = makeKnownLead() as unknown as Lead
const findPii = createPiiFinder(LEAD)
const fullwidth = (text: string) => text.replace(/\d/g, (d) => String.fromCodePoint(0xff10 + Number(d)))
const arabicIndic = (text: string) => text.replace(/\d/g, (d) => String.fromCodePoint(0x0660 + Number(d)))
const b64 = (text: string) => Buffer.from(text).toString('base64')

/** Literal values no row and no rate table may hold, beside what the finder itself still finds. */
const FORBIDDEN = [
  '987-65-4329',
  '987654329',
  fullwidth('987654329'),
  arabicIndic('987654329'),
  'pii.probe.lead',
  '202-555-0147',
  '2025550147',
  'Quentina',
  'Probeworth',
  '1983-07-19',
  '07/19/1983',
  'lender.example.com/leaky',
  '127.0.0.1:631',
  'router.localhost',
  '10.0.0.1',
  '169.254.169.254',
]

const CLEAN = {
  rate: 5,
  click_url: 'https://lender.example.com/apply?utm_source=widget&zip=95814&amount=12000',
  logo_src: 'https://lender.example.com/logo.svg',
  name: 'Clean Lender Inc.',
  display_name: 'Clean Lender',
  offer_details: 'Borrow $12,000 over 24 to 60 months. Rates from 5.99% to 35.99% APR.',
  product_type: 'personal_loan',
}

/** Offers bidding over the clean one, each leaking the lead's PII in one field. */
const LEAKY = [
  { ...CLEAN, rate: 50, offer_details: `Pre-approved for SSN 987-65-4329, born 07/19/1983. Apply now.` },
  { ...CLEAN, rate: 49, display_name: 'PII.PROBE.LEAD@example.com' },
  { ...CLEAN, rate: 48, name: `Lender ${fullwidth('(202) 555-0147')}` },
  { ...CLEAN, rate: 47, product_type: 'loan_for_quentina_probeworth' },
  { ...CLEAN, rate: 46, click_url: 'https://lender.example.com/leaky?a=987-65&b=4329' },
  {
    ...CLEAN,
    rate: 45,
    logo_src: `https://lender.example.com/leaky/${b64(b64('pii.probe.lead@example.com'))}`,
  },
  { ...CLEAN, rate: 44, click_url: `https://lender.example.com/leaky?dob=1983_07_19` },
]

/** Links to the visitor's own machine or network: dropped outside sandbox mode. */
const LOCAL_LINKS = [
  { ...CLEAN, rate: 60, click_url: 'http://127.0.0.1:631/x' },
  { ...CLEAN, rate: 59, click_url: 'https://router.localhost/' },
  { ...CLEAN, rate: 58, click_url: 'https://10.0.0.1/' },
  { ...CLEAN, rate: 57, click_url: 'https://[::ffff:127.0.0.1]/' },
  { ...CLEAN, rate: 56, logo_src: 'https://169.254.169.254/logo.svg' },
  { ...CLEAN, rate: 55, click_url: 'https://[::127.0.0.1]/' },
]

function entry(id: string, endpoint: string, sandbox: boolean): PartnerRegistryEntry {
  return {
    id,
    name: id,
    tier: 'first',
    endpoint,
    timeoutMs: 5_000,
    scoreFactor: 1,
    enabled: true,
    ...(sandbox ? { sandbox: true } : {}),
    display: {
      name: id,
      logoUrl: 'https://logos.example.com/p.svg',
      productType: 'personal_loan',
      productDisplayName: 'Personal loan',
      copy: '',
      disclaimer: '',
    },
  }
}

async function query<T = Record<string, unknown>>(ledger: Ledger, statement: SQL): Promise<T[]> {
  return ((await ledger.db.execute(statement)) as unknown as { rows: T[] }).rows
}

/** Every row of every table of the ledger's schema, as JSON text per row. */
async function everyRow(ledger: Ledger): Promise<string[]> {
  const tables = await query<{ table_schema: string; table_name: string }>(
    ledger,
    sql`select table_schema, table_name from information_schema.tables
        where table_schema in (current_schema(), 'drizzle') and table_type = 'BASE TABLE'`,
  )
  const rows: string[] = []
  for (const table of tables) {
    const found = await query(ledger, sql.raw(`select * from "${table.table_schema}"."${table.table_name}"`))
    rows.push(...found.map((row) => `${table.table_name}: ${JSON.stringify(row)}`))
  }
  return rows
}

function expectClean(texts: readonly string[]): void {
  for (const text of texts) {
    expect(findPii(text), text).toBeUndefined()
    for (const value of FORBIDDEN) expect(text.toLowerCase(), text).not.toContain(value.toLowerCase())
  }
}

function startMarketplace(
  ledger: Ledger,
  registry: PartnerRegistryEntry[],
  sandboxMode: boolean,
  ca?: string,
) {
  const dispatcher = ca === undefined ? undefined : new Agent({ connect: { ca } })
  const marketplace = createMarketplace({
    // One known applicant sent again and again (the partners echo its known values), so no duplicate check:
    // this suite is about what partners send back, not about who applies.
    config: {
      winnerPolicy: 'phase2',
      sandboxMode,
      deadlineMs: 5_000,
      duplicateWindowMs: 0,
      consentTexts: sandboxConsentTexts(),
    },
    ledger,
    registry,
    secret: SECRET,
    logger: pino({ level: 'silent' }),
    ...(dispatcher ? { dispatcher } : {}),
  })
  const app = marketplaceApi(marketplace)
  return { marketplace, app, dispatcher }
}

async function runLead(marketplace: Marketplace, app: Hono) {
  const { leadUuid, body } = await settledLeadThrough(marketplace, app)
  return { leadUuid, table: JSON.parse(body) as { offers: Array<Record<string, unknown>> } }
}

describe.each(LEDGER_DRIVERS)('partner PII in offers, lead_id and reason on $name', (driver) => {
  let ledger: Ledger
  let partners: LoopbackPartner[]
  let market: ReturnType<typeof startMarketplace>
  beforeAll(async () => {
    ledger = await driver.open()
    partners = [
      await startLoopbackPartner(() => ({
        body: {
          status: 'approved',
          lead_id: `app-${fullwidth('987654329')}`,
          offers: [...LEAKY, CLEAN],
        },
      })),
      await startLoopbackPartner(() => ({
        body: {
          status: 'rejected',
          lead_id: 'x19876543290',
          reason: `duplicate of ${arabicIndic('987 65 4329')} / pii.probe.lead%40example.com, QuentinaProbeworth`,
        },
      })),
    ]
    market = startMarketplace(
      ledger,
      [entry('leaky', partners[0]?.url ?? '', true), entry('echo', partners[1]?.url ?? '', true)],
      true,
    )
  })
  afterAll(async () => {
    await market?.marketplace.close()
    for (const partner of partners ?? []) await partner.close()
    await ledger?.close()
  })

  it('drops every leaking offer, counts it, masks lead_id and reason, and stores and shows nothing of it', async () => {
    const { leadUuid, table } = await runLead(market.marketplace, market.app)
    expect(table.offers.map((o) => o.financialInstitutionDisplayName)).toEqual(['Clean Lender'])
    expectClean([JSON.stringify(table)])

    const requests = await query<{
      partner_id: string
      offers_dropped: number
      reason: string
      partner_lead_id: string
    }>(
      ledger,
      sql`select partner_id, offers_dropped, reason, partner_lead_id from marketplace_partner_requests
          where lead_id = ${leadUuid} order by partner_id`,
    )
    expect(requests.map((r) => [r.partner_id, Number(r.offers_dropped)])).toEqual([
      ['echo', 0],
      ['leaky', LEAKY.length],
    ])
    const leaky = requests.find((r) => r.partner_id === 'leaky')
    expect(leaky?.reason).toContain(`${LEAKY.length} of ${LEAKY.length + 1} offers dropped`)
    for (const field of ['offer_details', 'display_name', 'name', 'product_type', 'click_url', 'logo_src'])
      expect(leaky?.reason).toContain(`.${field} carries the lead's`)
    expect(leaky?.partner_lead_id).toBe('app-[redacted]')
    const echo = requests.find((r) => r.partner_id === 'echo')
    expect(echo?.partner_lead_id).toBe('x1[redacted]0')
    // The email is there only percent-encoded: it cannot be masked in place, so the whole reason is.
    expect(echo?.reason).toBe('[redacted]')

    const stored = await query(ledger, sql`select * from marketplace_offers where lead_id = ${leadUuid}`)
    expect(stored).toHaveLength(1)
    const rows = await everyRow(ledger)
    expect(rows.length).toBeGreaterThan(3)
    expectClean(rows)
  })
})

describe.each(LEDGER_DRIVERS)(
  'partner links to the visitor’s own machine from a partner registered for production, on $name',
  (driver) => {
    let ledger: Ledger
    let server: Server
    let market: ReturnType<typeof startMarketplace>
    beforeAll(async () => {
      ledger = await driver.open()
      const tls = makeLocalTls()
      server = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
        req.resume()
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ status: 'approved', lead_id: 'prod-1', offers: [...LOCAL_LINKS, CLEAN] }))
        })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/leads`
      // A partner registered as outside sandbox mode (no `sandbox`): its links must be https to a public host.
      // The marketplace runs in sandbox mode only so that its endpoint may be this machine (a code-built
      // registry's endpoints get PARTNERS_FILE's rule: public https outside sandbox mode).
      market = startMarketplace(ledger, [entry('prod', url, false)], true, tls.ca)
    })
    afterAll(async () => {
      await market?.marketplace.close()
      await market?.dispatcher?.close()
      server?.closeAllConnections()
      await new Promise((resolve) => server?.close(resolve))
      await ledger?.close()
    })

    it('drops loopback, private, link-local and mapped-loopback links; the public https offer passes', async () => {
      const { leadUuid, table } = await runLead(market.marketplace, market.app)
      expect(table.offers.map((o) => o.financialInstitutionDisplayName)).toEqual(['Clean Lender'])
      const [request] = await query<{ status: string; offers_dropped: number; reason: string }>(
        ledger,
        sql`select status, offers_dropped, reason from marketplace_partner_requests where lead_id = ${leadUuid}`,
      )
      expect(request?.status).toBe('approved')
      expect(Number(request?.offers_dropped)).toBe(LOCAL_LINKS.length)
      expect(request?.reason).toContain(
        'offers[0].click_url must be https to a public host outside sandbox mode (this host is the machine itself)',
      )
      const stored = await query<{ click_url: string }>(
        ledger,
        sql`select click_url from marketplace_offers where lead_id = ${leadUuid}`,
      )
      expect(stored.map((o) => o.click_url)).toEqual([CLEAN.click_url])
      expectClean([JSON.stringify(table), ...(await everyRow(ledger))])
    })
  },
)
