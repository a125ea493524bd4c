/**
 * @module Declared bots (isbot: crawlers, HTTP libraries, headless browsers) send no second-look lead: outside
 * sandbox mode `POST /api/second-look` answers them 403 and no partner is asked; a visitor's phone browser
 * still sends its lead. In sandbox mode no real partner is asked and nothing is refused. The partner is a
 * public https endpoint answered by undici's MockAgent (no network), which counts what reaches it.
 */
import pino from 'pino'
import { MockAgent } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WIDGET_HEADER } from '../../src/contract/bff.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { sandboxConsentTexts } from '../../src/marketplace/consent/consent-texts.ts'
import { createMarketplace, type Marketplace } from '../../src/marketplace/index.ts'
import type { PartnerRegistryEntry } from '../../src/marketplace/registry/partner-registry.ts'
import { LEDGER_DRIVERS, openLedgerAround } from '../ledger/support/ledger-drivers.ts'
import { makeIssuedLead, makeLead, marketplaceApi, SECRET } from './support/harness.ts'

const PHONE_BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'curl/8.5.0',
  'python-requests/2.31.0',
  // A bare Mozilla/5.0 names no browser: isbot counts it among the bots.
  'Mozilla/5.0',
]
const PARTNER_ORIGIN = 'https://partner.example.com'
/** Sandbox mode sends leads only to partners on this machine or a private network. */
const SANDBOX_PARTNER_ORIGIN = 'https://partner.internal'

const partner: PartnerRegistryEntry = {
  id: 'lender',
  name: 'Lender',
  tier: 'first',
  endpoint: `${PARTNER_ORIGIN}/leads`,
  timeoutMs: 5_000,
  scoreFactor: 1,
  enabled: true,
  display: {
    name: 'Lender',
    logoUrl: 'https://logos.example.com/lender.svg',
    productType: 'personal_loan',
    productDisplayName: 'Personal loan',
    copy: '',
    disclaimer: '',
  },
}

describe.each(LEDGER_DRIVERS)('POST /api/second-look from a declared bot, on $name', (driver) => {
  let ledger: Ledger
  openLedgerAround(driver, (opened) => {
    ledger = opened
  })
  let agent: MockAgent
  let asked = 0
  beforeAll(() => {
    agent = new MockAgent()
    agent.disableNetConnect()
    for (const origin of [PARTNER_ORIGIN, SANDBOX_PARTNER_ORIGIN]) {
      agent
        .get(origin)
        .intercept({ path: '/leads', method: 'POST' })
        .reply(() => {
          asked++
          return { statusCode: 200, data: { status: 'declined', lead_id: `partner-${asked}` } }
        })
        .persist()
    }
  })
  afterAll(async () => {
    await agent.close()
  })

  let marketplace: Marketplace | undefined
  afterEach(async () => {
    await marketplace?.close()
    marketplace = undefined
    asked = 0
  })

  function start(sandboxMode: boolean) {
    marketplace = createMarketplace({
      config: { winnerPolicy: 'phase2', sandboxMode, deadlineMs: 5_000, consentTexts: sandboxConsentTexts() },
      ledger,
      registry: [sandboxMode ? { ...partner, endpoint: `${SANDBOX_PARTNER_ORIGIN}/leads` } : partner],
      secret: SECRET,
      logger: pino({ level: 'silent' }),
      dispatcher: agent,
    })
    const app = marketplaceApi(marketplace, { refuseBots: !sandboxMode })
    return (userAgent: string) =>
      app.request('http://bff.test/api/second-look', {
        method: 'POST',
        // Production mode refuses the sample applicants' SSNs: a real-looking applicant.
        body: JSON.stringify(sandboxMode ? makeLead() : makeIssuedLead()),
        headers: { 'content-type': 'application/json', [WIDGET_HEADER]: '1', 'user-agent': userAgent },
      })
  }

  it.each(BOTS)('answers 403 naming the reason and the fix, and asks no partner: %s', async (bot) => {
    const send = start(false)
    const res = await send(bot)
    expect(res.status).toBe(403)
    const error = (await res.json()) as { code: string; message: string }
    expect(error.code).toBe('forbidden')
    expect(error.message).toMatch(/Declared bots do not send second-look leads.*browser.*sandbox/)
    expect(marketplace?.inFlight).toBe(0)
    expect(asked).toBe(0)
  })

  it('sends a visitor’s lead from a phone browser to the partner', async () => {
    const send = start(false)
    const res = await send(PHONE_BROWSER)
    expect(res.status).toBe(201)
    const { rateTable } = (await res.json()) as { rateTable: { uuid: string } }
    await marketplace?.settled(rateTable.uuid)
    expect(asked).toBe(1)
  })

  it('refuses nothing in sandbox mode, where no real partner is asked', async () => {
    const send = start(true)
    const res = await send('curl/8.5.0')
    expect(res.status).toBe(201)
    const { rateTable } = (await res.json()) as { rateTable: { uuid: string } }
    await marketplace?.settled(rateTable.uuid)
    expect(asked).toBe(1)
  })
})
