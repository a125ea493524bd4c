/**
 * The done-when (issue 42, docs/placements.md): "The publisher report counts one placement's searches,
 * leads and clicks exactly". On both ledgers: two placements and no placement over two UTC days; insurance
 * searches, completions and repeated measures; second-look leads with impressions, repeated clicks and a
 * conversion, under a per-click and a per-conversion contract. Exact figures in JSON and CSV; the operator's
 * token only, as `/reports/duplicates`.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Ledger, ReplyRecord, SentRequest } from '../../src/ledger/index.ts'
import type { Marketplace, PartnerRegistryEntry } from '../../src/marketplace/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { testMarketplace } from './support/harness.ts'
import { DAY1, DAY2, EXPECTED, EXPECTED_CSV } from './support/placements-expected.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const OPERATOR = 'operator-reports-token-0123456789'
const CLICKER_TOKEN = 'clicker-own-token-0123456789'
const at = (day: string, time: string) => new Date(`${day}T${time}Z`)

const entry = (
  id: string,
  pays: 'per_click' | 'per_conversion',
  reportsToken?: string,
): PartnerRegistryEntry => ({
  id,
  name: id,
  tier: 'first',
  endpoint: `http://127.0.0.1:9/${id}`,
  timeoutMs: 12_000,
  scoreFactor: 1,
  enabled: true,
  pays,
  reportsToken,
  display: {
    name: id,
    logoUrl: '',
    productType: 'loan',
    productDisplayName: 'Loan',
    copy: '',
    disclaimer: '',
  },
})

/** A second-look lead from `placement`, sent to `partnerId`, with one winning offer bidding `rate`. */
async function lead(
  ledger: Ledger,
  o: {
    partnerId: string
    placement?: string
    sentAt: Date
    rate: number
    shown?: boolean
    clicks?: number
    converts?: boolean
  },
) {
  const leadId = randomUUID()
  const request: SentRequest = { id: randomUUID(), partnerId: o.partnerId, tier: 'first', sentAt: o.sentAt }
  const later = (ms: number) => new Date(o.sentAt.getTime() + ms)
  await ledger.createLead(
    {
      id: leadId,
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      placement: o.placement,
      createdAt: o.sentAt,
      deadlineAt: later(12_000),
    },
    [request],
  )
  const offerId = randomUUID()
  const partnerLeadId = `P-${randomUUID()}`
  const partnerLeadIdHash = createHash('sha256').update(partnerLeadId).digest('base64url')
  const reply: ReplyRecord = {
    requestId: request.id,
    leadId,
    partnerId: o.partnerId,
    status: 'approved',
    partnerLeadId,
    partnerLeadIdHash,
    latencyMs: 30,
    repliedAt: later(30),
    offers: [
      {
        id: offerId,
        position: 0,
        rate: o.rate,
        productType: 'personal_loan',
        recommendationScore: 5,
        clickUrl: 'https://partner.example/c',
      },
    ],
  }
  await ledger.closeTier(
    [reply],
    { kind: 'settle', winners: [{ offerId, rank: 1 }], outcomes: [], completedAt: later(40) },
    leadId,
  )
  if (o.shown)
    await ledger.recordImpression({ offerId, leadId, partnerId: o.partnerId, impressedAt: later(50) })
  for (let i = 0; i < (o.clicks ?? 0); i++)
    await ledger.recordClick({ offerId, leadId, partnerId: o.partnerId, clickedAt: later(60 + i) })
  if (o.converts) {
    const converted = await ledger.recordConversion({
      partnerId: o.partnerId,
      partnerLeadId,
      partnerLeadIdHash,
      convertedAt: later(5_000),
      receivedAt: later(6_000),
      amountCents: 4_000,
    })
    expect(converted.kind).toBe('created')
  }
}

/** Every kind of record the report counts, in the two days, plus some outside them. */
async function seedPlacements(ledger: Ledger): Promise<void> {
  const [s1, s2, s3, s4, s5, outside] = [
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
  ]
  const search = (searchUuid: string, placement: string | null, when: Date, completed = false) =>
    ledger.recordSearchEvents([{ kind: 'created', searchUuid, placement, at: when, completed }])
  await search(s1, 'home-hero', at(DAY1, '09:00:00'))
  await search(s2, 'home-hero', at(DAY1, '23:59:59'))
  await search(s3, 'quote-sidebar', at(DAY1, '10:00:00'), true)
  await search(s4, null, at(DAY1, '11:00:00'))
  await search(s5, 'home-hero', at(DAY2, '00:00:00'))
  await search(outside, 'home-hero', at('2026-03-04', '00:00:00'), true)
  const events = (list: Parameters<Ledger['recordSearchEvents']>[0]) => ledger.recordSearchEvents(list)
  const t = at(DAY1, '12:00:00')
  // Completions, one repeated; measures repeated, in one flush and across flushes.
  await Promise.all([
    events([{ kind: 'completed', searchUuid: s1, at: t }]),
    events([{ kind: 'completed', searchUuid: s1, at: t }]),
    events([{ kind: 'shown', searchUuid: s1, offerIds: ['a', 'b'], at: t }]),
    events([{ kind: 'shown', searchUuid: s1, offerIds: ['b', 'c'], at: t }]),
    events([{ kind: 'clicked', searchUuid: s1, offerId: 'a', at: t }]),
  ])
  await events([
    { kind: 'shown', searchUuid: s1, offerIds: ['a', 'b', 'c'], at: t },
    { kind: 'clicked', searchUuid: s1, offerId: 'a', at: t },
    { kind: 'clicked', searchUuid: s2, offerId: 'z', at: t },
    { kind: 'shown', searchUuid: s3, offerIds: ['x'], at: t },
    { kind: 'completed', searchUuid: s3, at: t },
    { kind: 'completed', searchUuid: s4, at: t },
    { kind: 'clicked', searchUuid: s5, offerId: 'q', at: t },
    { kind: 'clicked', searchUuid: outside, offerId: 'q', at: t },
  ])
  // A measure for a search the BFF never recorded (its create's write failed) counts nowhere.
  await events([{ kind: 'shown', searchUuid: randomUUID(), offerIds: ['lost'], at: t }])

  await lead(ledger, {
    partnerId: 'clicker',
    placement: 'home-hero',
    sentAt: at(DAY1, '09:30:00'),
    rate: 12.34,
    shown: true,
    clicks: 3,
  })
  await lead(ledger, {
    partnerId: 'converter',
    placement: 'home-hero',
    sentAt: at(DAY1, '09:40:00'),
    rate: 7.5,
    shown: true,
    converts: true,
  })
  await lead(ledger, {
    partnerId: 'clicker',
    placement: 'quote-sidebar',
    sentAt: at(DAY1, '10:30:00'),
    rate: 3,
    shown: true,
  })
  await lead(ledger, {
    partnerId: 'converter',
    sentAt: at(DAY1, '11:30:00'),
    rate: 9,
    clicks: 1,
    converts: true,
  })
  await lead(ledger, { partnerId: 'clicker', sentAt: at(DAY2, '08:00:00'), rate: 4 })
  await lead(ledger, {
    partnerId: 'clicker',
    placement: 'home-hero',
    sentAt: at('2026-03-01', '23:59:59'),
    rate: 50,
    shown: true,
    clicks: 1,
  })
}

describe.each(LEDGER_DRIVERS)('the placements report on $name', (driver) => {
  let ledger: Ledger
  let marketplace: Marketplace
  let app: Hono
  beforeAll(async () => {
    ledger = await driver.open()
    ;({ marketplace, app } = testMarketplace({
      config: { winnerPolicy: 'phase2', sandboxMode: true, reportsToken: OPERATOR },
      ledger,
      registry: [entry('clicker', 'per_click', CLICKER_TOKEN), entry('converter', 'per_conversion')],
    }))
    await seedPlacements(ledger)
  })
  afterAll(async () => {
    await marketplace?.close()
    await ledger?.close()
  })
  const get = (query: string, headers: Record<string, string> = { Authorization: `Bearer ${OPERATOR}` }) =>
    app.request(`/api/reports/placements${query}`, { headers })

  it('counts each placement’s searches, completions, offers shown, clicks, leads and earnings exactly (JSON)', async () => {
    const res = await get(`?from=${DAY1}&to=${DAY2}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.json()).toEqual({
      from: `${DAY1}T00:00:00.000Z`,
      to: '2026-03-04T00:00:00.000Z',
      rows: EXPECTED,
    })
  })

  it('gives the same figures as CSV, by ?format=csv or Accept: text/csv', async () => {
    const byQuery = await get(`?from=${DAY1}&to=${DAY2}&format=csv`)
    expect(byQuery.status).toBe(200)
    expect(byQuery.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(byQuery.headers.get('content-disposition')).toContain(`placements-${DAY1}-2026-03-04.csv`)
    expect(await byQuery.text()).toBe(EXPECTED_CSV)
    const byAccept = await get(`?from=${DAY1}&to=${DAY2}`, {
      Authorization: `Bearer ${OPERATOR}`,
      Accept: 'text/csv',
    })
    expect(await byAccept.text()).toBe(EXPECTED_CSV)
  })

  it('a range with nothing in it is an empty list; a header-only CSV', async () => {
    const res = await get('?from=2025-01-01&to=2025-01-31')
    expect((await res.json()).rows).toEqual([])
    const csv = await get('?from=2025-01-01&to=2025-01-31&format=csv')
    expect((await csv.text()).split('\r\n')).toHaveLength(2)
  })

  it('is the operator’s only: no token 401, a partner’s token answered like an unknown path, a bad range 400', async () => {
    expect((await get(`?from=${DAY1}`, {})).status).toBe(401)
    const partner = await get(`?from=${DAY1}`, { Authorization: `Bearer ${CLICKER_TOKEN}` })
    const duplicates = await app.request(`/api/reports/duplicates?from=${DAY1}`, {
      headers: { Authorization: `Bearer ${CLICKER_TOKEN}` },
    })
    expect(partner.status).toBe(duplicates.status)
    const bad = await get('?from=2026-02-30')
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('"field":"from"')
  })
})
