import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { bffErrorSchema } from '../../src/contract/bff.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { offers, partnerRequests } from '../../src/ledger/schema.ts'
import {
  createClickSigner,
  type Marketplace,
  type PartnerRegistryEntry,
} from '../../src/marketplace/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { type LoopbackPartner, startLoopbackPartner } from '../partner-kit/support/loopback-partner.ts'
import { CLIENT, makeLead, SECRET, testMarketplace } from './support/harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const DISPLAY = {
  name: 'P',
  logoUrl: 'https://logos.example.com/p.svg',
  productType: 'personal_loan',
  productDisplayName: 'Personal loan',
  copy: '',
  disclaimer: '',
}

function entry(id: string, endpoint: string): PartnerRegistryEntry {
  return {
    id,
    name: id,
    tier: 'first',
    endpoint,
    timeoutMs: 5_000,
    scoreFactor: 1,
    enabled: true,
    display: DISPLAY,
  }
}

/** Partners whose offers carry links a browser must never get: http to the internet, javascript:, data:. */
const BAD_LINKS: Record<string, { click_url: string; logo_src?: string }> = {
  'http-click': { click_url: 'http://partner.example.com/c/1' },
  'js-logo': { click_url: 'https://partner.example.com/c/2', logo_src: 'javascript:alert(document.cookie)' },
  'data-logo': { click_url: 'https://partner.example.com/c/3', logo_src: 'data:image/svg+xml,<svg/>' },
}

describe.each(LEDGER_DRIVERS)('partner data handled like lead data on $name', (driver) => {
  let ledger: Ledger
  let partners: Record<string, LoopbackPartner>
  let marketplace: Marketplace
  let app: Hono
  beforeAll(async () => {
    ledger = await driver.open()
    partners = {}
    for (const [id, links] of Object.entries(BAD_LINKS)) {
      partners[id] = await startLoopbackPartner(() => ({
        body: { status: 'approved', lead_id: `${id}-1`, offers: [{ rate: 9, ...links }] },
      }))
    }
    ;({ marketplace, app } = testMarketplace({
      config: { winnerPolicy: 'phase2', sandboxMode: true, deadlineMs: 5_000 },
      ledger,
      registry: Object.entries(partners).map(([id, p]) => entry(id, p.url)),
    }))
  }, 30_000)
  afterAll(async () => {
    await marketplace.close()
    for (const p of Object.values(partners)) await p.close()
    await ledger.close()
  })

  const submit = (body: unknown) =>
    app.request('http://bff.test/api/second-look', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    })

  it('refuses unknown lead fields at every level with a 400 naming each, and no partner receives the lead', async () => {
    const lead = makeLead() as Record<string, Record<string, unknown>>
    const body = {
      ...lead,
      bankAccount: '000123456789',
      personalInformation: { ...lead.personalInformation, mothersMaidenName: 'Smith' },
      legalInformation: { ...lead.legalInformation, consentsToTcpa: 'true' },
    }
    const before = Object.values(partners).reduce((n, p) => n + p.received.length, 0)
    const res = await submit(body)
    expect(res.status).toBe(400)
    const error = bffErrorSchema.parse(await res.json())
    expect(error.code).toBe('validation_failed')
    expect(error.errors?.map((e) => e.field).sort()).toEqual([
      'bankAccount',
      'legalInformation.consentsToTcpa',
      'personalInformation.mothersMaidenName',
    ])
    expect(error.errors?.find((e) => e.field === 'legalInformation.consentsToTcpa')?.reason).toMatch(
      /did you mean legalInformation\.consentstoTcpa\?/,
    )
    expect(Object.values(partners).reduce((n, p) => n + p.received.length, 0)).toBe(before)
  })

  it('forwards exactly the fields the contract defines', async () => {
    const res = await submit(makeLead())
    expect(res.status).toBe(201)
    const { rateTable } = (await res.json()) as { rateTable: { uuid: string } }
    await marketplace.settled(rateTable.uuid)
    const sent = JSON.parse(partners['http-click']?.received.at(-1)?.body ?? '{}') as Record<string, unknown>
    expect(Object.keys(sent).sort()).toEqual([
      'creditInformation',
      'financialInformation',
      'legalInformation',
      'loanInformation',
      'personalInformation',
      'sessionInformation',
    ])
    expect(sent.sessionInformation).toEqual(CLIENT)
  })

  it('an http click_url or a javascript:/data: logo breaks the contract: the reply is an error and no offer reaches the rate table', async () => {
    const res = await submit(makeLead())
    const { rateTable, accessToken } = (await res.json()) as {
      accessToken: string
      rateTable: { uuid: string; leadUuid: string }
    }
    await marketplace.settled(rateTable.uuid)
    const poll = await app.request(`http://bff.test/api/second-look/${rateTable.uuid}`, {
      headers: { 'X-Offer-Access-Token': accessToken },
    })
    const table = (await poll.json()) as { offers: unknown[] }
    expect(table.offers).toEqual([])
    expect(JSON.stringify(table)).not.toMatch(/javascript:|data:image|http:\/\/partner/)
    const rows = await ledger.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.leadId, rateTable.leadUuid))
    expect(rows.map((r) => [r.partnerId, r.status]).sort()).toEqual([
      ['data-logo', 'error'],
      ['http-click', 'error'],
      ['js-logo', 'error'],
    ])
    expect(rows.find((r) => r.partnerId === 'http-click')?.reason).toMatch(
      /offers\.0\.click_url: offers\[\]\.click_url must be an absolute https URL \(http only to a loopback host\)/,
    )
    expect(rows.find((r) => r.partnerId === 'js-logo')?.reason).toMatch(/offers\.0\.logo_src/)
  })

  it('a stored offer whose click_url is not https (written before the rule) never redirects', async () => {
    const offerId = randomUUID()
    await ledger.db.insert(offers).values({
      id: offerId,
      leadId: randomUUID(),
      requestId: randomUUID(),
      partnerId: 'http-click',
      position: 0,
      rate: 1,
      productType: 'personal_loan',
      recommendationScore: 1,
      clickUrl: 'http://partner.example.com/old',
      displayed: true,
      rank: 1,
      createdAt: new Date(),
    })
    const res = await app.request(`http://bff.test/api/clicks/${createClickSigner(SECRET).sign(offerId)}`)
    expect(res.status).toBe(404)
    expect(res.headers.get('location')).toBeNull()
  })
})
