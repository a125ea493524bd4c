/**
 * @module Money and PII at the partner boundary, on both ledgers: conversion amounts bounded and summed
 * exactly, conversions only for leads the partner's offer was shown to or clicked by, conversions matched by
 * the raw `lead_id` a partner sent though the ledger holds it masked, and a partner URL carrying the lead's
 * SSN dropped as a contract error with nothing of it stored.
 */
import { describe, expect, it, vi } from 'vitest'
import { bffErrorSchema } from '../../src/contract/bff.ts'
import type { PartnerReport } from '../../src/ledger/index.ts'
import { clicks, conversions, offers, partnerRequests } from '../../src/ledger/schema.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { KNOWN_SSN, makeLead } from './support/harness.ts'
import { OPERATOR_TOKEN, reportsMarketAround } from './support/reports-market.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const TOKENS: Record<string, string> = {
  'leaky-id': 'leaky-id-own-token-0123456789',
  decliner: 'decliner-own-token-0123456789',
  'url-leaker': 'url-leaker-own-token-0123456789',
}
const OTHER_SSN = '219-09-9999'

describe.each(LEDGER_DRIVERS)('conversions, amounts and partner PII on $name', (driver) => {
  const m = reportsMarketAround(driver, {
    partners: [
      // Wins every auction; its lead_id is built on the lead's SSN, so the ledger holds it masked.
      {
        id: 'leaky-id',
        name: 'Leaky Id',
        tier: 'first',
        behavior: 'approve-ssn-lead-id',
        latencyMs: 1,
        bidMultiplier: 2,
      },
      { id: 'decliner', name: 'Decliner', tier: 'first', behavior: 'reject', latencyMs: 1 },
      // Would outbid everyone, but its click URLs carry the lead's SSN.
      {
        id: 'url-leaker',
        name: 'Url Leaker',
        tier: 'first',
        behavior: 'approve-ssn-click-url',
        latencyMs: 1,
        bidMultiplier: 3,
      },
    ],
    tokens: TOKENS,
  })

  const get = (url: string, token?: string) => m.get(url, token)
  const report = async (id: string) =>
    (await (await get(`/api/reports/partners/${id}`, OPERATOR_TOKEN)).json()) as PartnerReport
  const post = (body: unknown, partner: string) => m.postConversion(body, TOKENS[partner])
  /** A settled lead with `ssn`, its winning offers' pixels fired unless `show` is false. */
  const lead = async (ssn = KNOWN_SSN, show = true) => {
    const base = makeLead() as { personalInformation: Record<string, unknown> }
    const settled = await m.settle<{
      financialInstitutionUuid: string
      impressionTrackingPixelUrls: string[]
    }>({
      ...base,
      personalInformation: { ...base.personalInformation, ssn },
    })
    if (show) for (const offer of settled.offers) await get(offer.impressionTrackingPixelUrls[0] ?? '')
    return settled
  }

  it("an offer whose click_url carries the lead's SSN is dropped, counted for its partner, and nothing of it is stored", async () => {
    const shown = await lead()
    expect(shown.offers.map((o) => o.financialInstitutionUuid)).toEqual(['leaky-id', 'leaky-id'])
    const rows = await m.ledger.db.select().from(partnerRequests)
    const leaker = rows.find((r) => r.leadId === shown.leadId && r.partnerId === 'url-leaker')
    expect(leaker).toMatchObject({ status: 'error', offerCount: 0, offersDropped: 2 })
    expect(leaker?.reason).toMatch(
      /every offer broke the contract: 2 of 2 offers dropped: offers\[0\]\.click_url carries the lead's SSN/,
    )
    const stored = JSON.stringify([await m.ledger.db.select().from(offers), rows])
    for (const spelling of [KNOWN_SSN, KNOWN_SSN.replace(/-/g, '')]) expect(stored).not.toContain(spelling)
    expect((await report('url-leaker')).offersDropped).toBeGreaterThanOrEqual(2)
    expect((await report('leaky-id')).offersDropped).toBe(0)
  })

  it('matches a conversion on the raw lead_id the partner sent, though the ledger holds it masked; ids masked alike never collide', async () => {
    const a = await lead(KNOWN_SSN)
    const b = await lead(OTHER_SSN)
    const leads = (await report('leaky-id')).leads
    const masked = leads.find((l) => l.leadId === a.leadId)?.partnerLeadId
    expect(masked).toBe('app-[redacted]')
    expect(leads.find((l) => l.leadId === b.leadId)?.partnerLeadId).toBe(masked)
    // The masked form was never the partner's id: it matches nothing.
    expect((await post({ lead_id: masked }, 'leaky-id')).status).toBe(404)
    const first = await post({ lead_id: `app-${KNOWN_SSN}`, amount: 10 }, 'leaky-id')
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({ conversion: { lead_id: masked, amount: 10, currency: 'USD' } })
    const second = await post({ lead_id: `app-${OTHER_SSN}`, amount: 20 }, 'leaky-id')
    expect(second.status).toBe(201)
    const converted = (await report('leaky-id')).leads.filter((l) => l.converted).map((l) => l.leadId)
    expect(converted).toEqual(expect.arrayContaining([a.leadId, b.leadId]))
    const stored = JSON.stringify(await m.ledger.db.select().from(conversions))
    expect(stored).not.toContain(KNOWN_SSN)
    expect(stored).not.toContain(OTHER_SSN)
  })

  it('refuses (409) a conversion for a lead the partner rejected, or whose offer nobody saw or clicked', async () => {
    const rejected = await lead()
    const declinerId = (await report('decliner')).leads.find(
      (l) => l.leadId === rejected.leadId,
    )?.partnerLeadId
    expect(declinerId).toMatch(/^decliner-/)
    const refused = await post({ lead_id: declinerId, amount: 50 }, 'decliner')
    expect(refused.status).toBe(409)
    expect(bffErrorSchema.parse(await refused.json())).toMatchObject({ code: 'conflict' })
    expect((await report('decliner')).conversions).toBe(0)
    // Won but never rendered nor clicked: refused too, until the visitor clicks it.
    const unseen = await lead(OTHER_SSN.replace('9999', '9998'), false)
    const raw = `app-${OTHER_SSN.replace('9999', '9998')}`
    expect((await post({ lead_id: raw }, 'leaky-id')).status).toBe(409)
    const [offer] = await m.ledger.db.select().from(offers)
    expect(offer).toBeDefined()
    const won = (await m.ledger.db.select().from(offers)).find(
      (o) => o.leadId === unseen.leadId && o.displayed,
    )
    await m.ledger.db.insert(clicks).values({
      offerId: won?.id ?? '',
      leadId: unseen.leadId,
      partnerId: 'leaky-id',
      clickedAt: new Date(),
    })
    expect((await post({ lead_id: raw }, 'leaky-id')).status).toBe(201)
  })

  it.each([
    [1e308, /at most 1000000/],
    [1e-9, /at least 0\.01 \(US dollars/],
    // More than 0 but rounds to 0 cents: once stored as a conversion of nothing.
    [1e-14, /at least 0\.01 \(US dollars, i\.e\. one cent\)/],
    [0.004, /at least 0\.01/],
    [0, /at least 0\.01/],
    [-5, /at least 0\.01/],
    [12.345, /at most 2 decimals/],
    [1_000_000.01, /at most 1000000/],
    ['12', /number of US dollars/],
  ])('refuses amount %j (400, naming the field)', async (amount, reason) => {
    const res = await post({ lead_id: 'whatever', amount }, 'leaky-id')
    expect(res.status).toBe(400)
    const issue = bffErrorSchema.parse(await res.json()).errors?.find((e) => e.field === 'amount')
    expect(issue?.reason).toMatch(reason)
  })

  it('refuses (400, naming converted_at) a conversion dated before its lead was sent or over 5 minutes ahead; accepts one between', async () => {
    const ssn = '123-45-6790'
    const shown = await lead(ssn)
    const sentAt = (await report('leaky-id')).leads.find((l) => l.leadId === shown.leadId)?.sentAt ?? ''
    expect(sentAt).not.toBe('')
    const reasonFor = async (converted_at: string) => {
      const res = await post({ lead_id: `app-${ssn}`, converted_at, amount: 5 }, 'leaky-id')
      expect(res.status).toBe(400)
      return bffErrorSchema.parse(await res.json()).errors?.find((e) => e.field === 'converted_at')?.reason
    }
    expect(await reasonFor('1970-01-01T00:00:00Z')).toMatch(
      `must not be before the lead was sent to you (${sentAt})`,
    )
    expect(await reasonFor(new Date(Date.parse(sentAt) - 1).toISOString())).toMatch(
      /before the lead was sent/,
    )
    expect(await reasonFor(new Date(Date.now() + 6 * 60_000).toISOString())).toMatch(
      /not be more than 5 minutes ahead/,
    )
    expect((await report('leaky-id')).leads.find((l) => l.leadId === shown.leadId)?.converted).toBe(false)
    const res = await post({ lead_id: `app-${ssn}`, converted_at: sentAt, amount: 5 }, 'leaky-id')
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ conversion: { converted_at: sentAt, amount: 5 } })
  })

  it('sums accepted amounts exactly; no row can make the report or its CSV Infinity, NaN or null', async () => {
    const before = await report('leaky-id')
    const amounts = [0.1, 0.2, 1_000_000, 19.99]
    for (const [i, amount] of amounts.entries()) {
      const ssn = `123-45-${String(6780 + i)}`
      await lead(ssn)
      expect((await post({ lead_id: `app-${ssn}`, amount }, 'leaky-id')).status).toBe(201)
    }
    const after = await report('leaky-id')
    expect(Math.round((after.conversionAmount - before.conversionAmount) * 100)).toBe(100_002_029)
    expect(after.conversionAmount).not.toBeNull()
    const csv = await (
      await get('/api/reports/partners/leaky-id?format=csv&table=summary', OPERATOR_TOKEN)
    ).text()
    expect(csv).toMatch(/conversion_amount/)
    expect(csv).not.toMatch(/Infinity|NaN|null/)
  })
})
