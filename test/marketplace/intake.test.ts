import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { bffErrorSchema, createdSearchSchema, LEAD_BODY_LIMIT_BYTES } from '../../src/contract/bff.ts'
import { rateTableSchema } from '../../src/contract/offer-search.ts'
import { type Ledger, openLedger } from '../../src/ledger/index.ts'
import { parseConsentTexts } from '../../src/marketplace/consent/consent-texts.ts'
import { createMarketplace, searchApiRoutes } from '../../src/marketplace/index.ts'
import type { SimulatedPartnerSpec } from '../../src/partner-kit/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { NOTICES } from './support/consent-notices.ts'
import {
  CLIENT,
  type Harness,
  harnessAround,
  makeLead,
  marketplaceApi,
  submitAndSettle,
  TEST_ACCESS_TOKENS,
} from './support/harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const PARTNERS: SimulatedPartnerSpec[] = [
  { id: 'first-a', name: 'First A', tier: 'first', behavior: 'approve', latencyMs: 5 },
  { id: 'second-a', name: 'Second A', tier: 'second', behavior: 'approve', latencyMs: 5 },
]

describe.each(LEDGER_DRIVERS)('second-look intake and polling on $name', (driver) => {
  let _ledger: Ledger
  let h: Harness
  harnessAround(driver, { partners: PARTNERS }, (harness, opened) => {
    h = harness
    _ledger = opened
  })

  it('answers 201 { accessToken, rateTable } with the pending first-look partners as full partner objects', async () => {
    const res = await h.submit(makeLead())
    expect(res.status).toBe(201)
    const body = createdSearchSchema.parse(await res.json())
    expect(body.rateTable.offers).toEqual([])
    expect(body.rateTable.pendingResponses).toHaveLength(1)
    expect(body.rateTable.pendingResponses[0]?.partner).toMatchObject({
      uuid: 'first-a',
      name: 'First A',
      brandName: 'First A',
      supportsPreSelect: false,
    })
    await h.marketplace.settled(body.rateTable.uuid)
  })

  it('takes sessionInformation from the live request, never from the body', async () => {
    const before = h.partners.leadsReceived('first-a').length
    await submitAndSettle(h)
    const sent = h.partners.leadsReceived('first-a')[before] as { sessionInformation: unknown }
    expect(sent.sessionInformation).toEqual(CLIENT)
  })

  it('polls like an offer search: the final rate table has the same shape and no partner pending', async () => {
    const { final } = await submitAndSettle(h)
    const table = rateTableSchema.parse(final)
    expect(table.pendingResponses).toEqual([])
    expect(table.offers.length).toBeGreaterThan(0)
  })

  it('refuses a poll without the access token, or with another search token, as 404; a malformed uuid as 400', async () => {
    const { created } = await submitAndSettle(h)
    const uuid = created.rateTable.uuid
    expect((await h.poll(uuid)).status).toBe(404)
    expect((await h.poll(uuid, `token-for-${randomUUID()}`)).status).toBe(404)
    expect((await h.poll(randomUUID(), created.accessToken)).status).toBe(404)
    const malformed = await h.poll('not-a-uuid', created.accessToken)
    expect(malformed.status).toBe(400)
    expect(bffErrorSchema.parse(await malformed.json()).code).toBe('bad_request')
    expect((await h.poll(uuid, created.accessToken)).status).toBe(200)
  })

  it('requires FCRA consent: consentsToFcra "false" is a 400 naming the field', async () => {
    const lead = makeLead({ legalInformation: { consentsToFcra: 'false' as 'true', fcraLanguage: 'text' } })
    const res = await h.submit(lead)
    expect(res.status).toBe(400)
    const body = bffErrorSchema.parse(await res.json())
    expect(body.code).toBe('validation_failed')
    expect(body.errors?.map((e) => e.field)).toContain('legalInformation.consentsToFcra')
  })

  it('applies the conditional rules: "exactly one of providedCreditRating and providedNumericCreditScore"', async () => {
    const res = await h.submit(
      makeLead({ creditInformation: { providedCreditRating: 'good', providedNumericCreditScore: 700 } }),
    )
    expect(res.status).toBe(400)
    expect(bffErrorSchema.parse(await res.json()).errors?.map((e) => e.field)).toContain(
      'creditInformation.providedCreditRating',
    )
  })

  it('applies availability rules: a missing ssn and a state outside the 50 states, DC, PR and VI are 400s', async () => {
    const lead = makeLead() as { personalInformation: Record<string, unknown> }
    const { ssn: _ssn, ...withoutSsn } = lead.personalInformation
    const res = await h.submit({ ...lead, personalInformation: { ...withoutSsn, state: 'XX' } })
    const fields = bffErrorSchema.parse(await res.json()).errors?.map((e) => e.field)
    expect(res.status).toBe(400)
    expect(fields).toEqual(expect.arrayContaining(['personalInformation.ssn', 'personalInformation.state']))
  })

  it('refuses a body that is not JSON with 400 bad_request', async () => {
    const res = await h.submit('{not json')
    expect(res.status).toBe(400)
    expect(bffErrorSchema.parse(await res.json()).code).toBe('bad_request')
  })

  describe('Idempotency-Key', () => {
    it('same key and body: the same search, and partners get the lead once', async () => {
      const key = randomUUID()
      const before = h.partners.requestCount('first-a')
      const lead = makeLead()
      const first = await h.submit(lead, { 'Idempotency-Key': key })
      const again = await h.submit(lead, { 'Idempotency-Key': key })
      expect(first.status).toBe(201)
      expect(again.status).toBe(201)
      const a = createdSearchSchema.parse(await first.json())
      const b = createdSearchSchema.parse(await again.json())
      expect(b.rateTable.uuid).toBe(a.rateTable.uuid)
      expect(b.rateTable.leadUuid).toBe(a.rateTable.leadUuid)
      await h.marketplace.settled(a.rateTable.uuid)
      expect(h.partners.requestCount('first-a') - before).toBe(1)
    })

    it('concurrent retries with one key fan out once', async () => {
      const key = randomUUID()
      const before = h.partners.requestCount('first-a')
      const lead = makeLead()
      const responses = await Promise.all([1, 2, 3].map(() => h.submit(lead, { 'Idempotency-Key': key })))
      const bodies = await Promise.all(responses.map(async (r) => createdSearchSchema.parse(await r.json())))
      expect(new Set(bodies.map((b) => b.rateTable.uuid)).size).toBe(1)
      await h.marketplace.settled(bodies[0]?.rateTable.uuid ?? '')
      expect(h.partners.requestCount('first-a') - before).toBe(1)
    })

    it('same key with a different body: 409 conflict, and no fan-out', async () => {
      const key = randomUUID()
      const first = createdSearchSchema.parse(
        await (await h.submit(makeLead(), { 'Idempotency-Key': key })).json(),
      )
      await h.marketplace.settled(first.rateTable.uuid)
      const before = h.partners.requestCount('first-a')
      const other = makeLead({ loanInformation: { purpose: 'home_improvement', loanAmount: 9_000 } })
      const res = await h.submit(other, { 'Idempotency-Key': key })
      expect(res.status).toBe(409)
      expect(bffErrorSchema.parse(await res.json()).code).toBe('conflict')
      expect(h.partners.requestCount('first-a')).toBe(before)
    })

    it('keeps a hash of the body, never the body', async () => {
      const key = randomUUID()
      const res = await h.submit(makeLead(), { 'Idempotency-Key': key })
      const { rateTable } = createdSearchSchema.parse(await res.json())
      await h.marketplace.settled(rateTable.uuid)
      const snapshot = await h.ledger.getSearch(rateTable.uuid)
      expect(snapshot?.lead.bodyHash).toMatch(/^[A-Za-z0-9_-]{43}$/)
    })

    it('a malformed key is a 400', async () => {
      const res = await h.submit(makeLead(), { 'Idempotency-Key': 'has spaces in it' })
      expect(res.status).toBe(400)
    })
  })

  describe('with the longest consent texts an operator may write', () => {
    const fcra = `By clicking "See my loan offers" ${'I authorize lenders to pull my credit. '.repeat(256)}`
      .slice(0, 10_000)
      .trim()
    const tcpa = 'You may call and text me. '.repeat(400).slice(0, 10_000).trim()
    let long: Harness
    harnessAround(
      driver,
      {
        partners: PARTNERS,
        config: {
          consentTexts: parseConsentTexts(JSON.stringify({ version: 'long', fcra, tcpa, ...NOTICES })),
        },
      },
      (harness) => {
        long = harness
      },
    )

    it('takes a lead whose FCRA and TCPA texts are at their longest (its route declares 64 KB), and no body over that', async () => {
      const lead = makeLead({
        legalInformation: {
          consentsToFcra: 'true',
          fcraLanguage: fcra,
          consentstoTcpa: 'true',
          tcpaLanguage: tcpa,
        },
      })
      // Over the 16 KB of a search body, which used to be the BFF's limit for every other /api path.
      expect(JSON.stringify(lead).length).toBeGreaterThan(16 * 1024)
      const res = await long.submit(lead)
      expect(res.status).toBe(201)
      await long.marketplace.settled(createdSearchSchema.parse(await res.json()).rateTable.uuid)
      const over = await long.submit({ ...lead, padding: 'x'.repeat(LEAD_BODY_LIMIT_BYTES) })
      expect(over.status).toBe(413)
      expect(bffErrorSchema.parse(await over.json()).code).toBe('payload_too_large')
    })
  })
})

describe("the host's guards (searchApiRoutes) and an empty registry", () => {
  let ledger: Ledger
  beforeAll(async () => {
    ledger = await openLedger({ inMemory: true })
  }, 30_000)
  afterAll(async () => {
    await ledger.close()
  })
  const marketplace = () =>
    createMarketplace({
      config: { winnerPolicy: 'phase1', sandboxMode: true },
      ledger,
      registry: [],
      secret: 'test-secret-0123456789abcdef-0123',
    })

  it("runs the host's guards (e.g. the per-IP limit) before intake only", async () => {
    const m = marketplace()
    const api = searchApiRoutes(m, {
      accessTokens: TEST_ACCESS_TOKENS,
      identity: () => CLIENT,
      refuseBots: false,
      guards: [async (c) => c.json({ code: 'rate_limited', message: 'slow down' }, 429)],
    })
    const limited = await api.request('/second-look', { method: 'POST', body: '{}' })
    expect(limited.status).toBe(429)
    expect((await api.request(`/second-look/${randomUUID()}`)).status).toBe(404)
    await m.close()
  })

  it('with no partner to ask, the search is complete at once with no offers', async () => {
    const m = marketplace()
    const api = marketplaceApi(m)
    const res = await api.request('/api/second-look', { method: 'POST', body: JSON.stringify(makeLead()) })
    expect(res.status).toBe(201)
    const { rateTable } = createdSearchSchema.parse(await res.json())
    expect(rateTable.pendingResponses).toEqual([])
    expect(rateTable.offers).toEqual([])
    await m.close()
  })
})
