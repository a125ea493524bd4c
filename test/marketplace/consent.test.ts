/**
 * Consent and its proof (docs/decisions/0105-consent-records.md), on both ledgers: the operator's texts at
 * `GET /api/second-look/consent`; a lead whose texts are not the operator's is refused naming the field;
 * partners receive exactly the operator's texts and the `consentCertificate` extension, never `consent`; the
 * consent record is written with the lead and read by the operator and by a partner that was sent the lead,
 * and by no other.
 */
import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BFF_ROUTES, bffErrorSchema, createdSearchSchema, WIDGET_HEADER } from '../../src/contract/bff.ts'
import { consentTextsSchema } from '../../src/contract/consent.ts'
import { servedConsentTextsSchema } from '../../src/contract/consent-notices.ts'
import type { ConsentRecord, Ledger } from '../../src/ledger/index.ts'
import { consentTexts, partnerRequests } from '../../src/ledger/schema.ts'
import { parseConsentTexts } from '../../src/marketplace/consent/consent-texts.ts'
import type { Marketplace } from '../../src/marketplace/index.ts'
import { type SimulatedPartners, startSimulatedPartners } from '../../src/partner-kit/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { NOTICES } from './support/consent-notices.ts'
import { CLIENT, makeLead, testMarketplace } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const OPERATOR = 'operator-reports-token-0123456789'
const TOKENS = { lender: 'lender-own-reports-token-0123', bystander: 'bystander-own-reports-token-01' }
const TEXTS = {
  version: '2026-11',
  fcra: 'By clicking "See my loan offers" I authorize Example Offers and its lenders to make a soft inquiry into my credit report (2026-11).',
  tcpa: 'I agree that Example Offers and its lenders may call and text me, also by autodialer (2026-11).',
  previous: [
    {
      version: '2026-01',
      fcra: 'I authorize lenders to obtain my consumer credit report (2026-01).',
      tcpa: 'Lenders may call and text me (2026-01).',
    },
  ],
  ...NOTICES,
}
const CERT = `https://cert.trustedform.com/${'0123456789abcdef0123'.repeat(2)}`
const LEADID = 'B3A1C2D4-1111-4222-8333-944455556666'

const legal = (fcra: string, tcpa?: string, consentstoTcpa: 'true' | 'false' = 'true') => ({
  legalInformation: {
    consentsToFcra: 'true' as const,
    fcraLanguage: fcra,
    ...(tcpa === undefined ? {} : { consentstoTcpa, tcpaLanguage: tcpa }),
  },
})

describe.each(LEDGER_DRIVERS)('consent and its proof on $name', (driver) => {
  let ledger: Ledger
  let partners: SimulatedPartners
  let marketplace: Marketplace
  let app: Hono
  beforeAll(async () => {
    ledger = await driver.open()
    partners = await startSimulatedPartners({
      recordLeads: true,
      partners: [
        { id: 'lender', name: 'Lender', tier: 'first', behavior: 'approve', latencyMs: 1 },
        // Second look never runs (first look offers), so this partner is never sent a lead.
        { id: 'bystander', name: 'Bystander', tier: 'second', behavior: 'approve', latencyMs: 1 },
      ],
    })
    ;({ marketplace, app } = testMarketplace({
      config: {
        winnerPolicy: 'phase2',
        // Sandbox mode for the partners on this machine; the operator's texts replace the built-in ones.
        sandboxMode: true,
        deadlineMs: 2_000,
        reportsToken: OPERATOR,
        consentTexts: parseConsentTexts(JSON.stringify(TEXTS), { format: 'json' }),
      },
      ledger,
      registry: partners.entries.map((e) => ({ ...e, reportsToken: TOKENS[e.id as keyof typeof TOKENS] })),
    }))
  }, 30_000)
  afterAll(async () => {
    await marketplace?.close()
    await partners?.close()
    await ledger?.close()
  })

  const submit = (body: unknown, headers: Record<string, string> = { [WIDGET_HEADER]: '0.1.0' }) =>
    app.request('http://bff.test/api/second-look', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    })
  const get = (path: string, token: string) =>
    app.request(`http://bff.test${path}`, { headers: { Authorization: `Bearer ${token}` } })
  const settle = async (body: unknown, headers?: Record<string, string>) => {
    const res = await submit(body, headers)
    expect(res.status, await res.clone().text()).toBe(201)
    const { rateTable } = createdSearchSchema.parse(await res.json())
    await marketplace.settled(rateTable.uuid)
    return rateTable.leadUuid
  }

  it('serves the current texts with their content hashes, the button they name and the notices, cacheable for five minutes', async () => {
    const res = await app.request(`http://bff.test${BFF_ROUTES.consentTexts}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)
    const body = await res.json()
    expect(servedConsentTextsSchema.parse(body)).toEqual({
      version: '2026-11',
      fcra: { id: hash(TEXTS.fcra), text: TEXTS.fcra },
      tcpa: { id: hash(TEXTS.tcpa), text: TEXTS.tcpa },
      submitLabel: 'See my loan offers',
      notices: { noDecision: NOTICES.noDecisionNotice, softPull: NOTICES.softPullNotice },
      links: NOTICES.links,
    })
    // The loan application's own schema (loose) passes them through as they are.
    expect(consentTextsSchema.parse(body)).toEqual(body)
  })

  it.each([
    ['an FCRA text of its own', legal(`${TEXTS.fcra} `, TEXTS.tcpa), 'legalInformation.fcraLanguage'],
    [
      'a TCPA text of its own',
      legal(TEXTS.fcra, 'Call me, whoever you are.'),
      'legalInformation.tcpaLanguage',
    ],
    [
      'a declined TCPA box beside a text of its own',
      legal(TEXTS.fcra, 'Nope.', 'false'),
      'legalInformation.tcpaLanguage',
    ],
  ])(
    'refuses a lead with %s: 400 naming the field and the fix, sent to no partner',
    async (_, texts, field) => {
      const before = partners.requestCount('lender')
      const res = await submit(makeLead(texts))
      expect(res.status).toBe(400)
      const error = bffErrorSchema.parse(await res.json())
      expect(error.code).toBe('validation_failed')
      const issue = error.errors?.find((e) => e.field === field)
      expect(issue?.reason).toMatch(
        new RegExp(
          `^${field} is not the operator's (FCRA|TCPA) text: show the text GET /api/second-look/consent serves, word for word$`,
        ),
      )
      expect(partners.requestCount('lender')).toBe(before)
    },
  )

  it('sends partners exactly the texts and the certificate as consentCertificate, never consent', async () => {
    const before = partners.leadsReceived('lender').length
    await settle({
      ...makeLead(legal(TEXTS.previous[0]?.fcra ?? '', TEXTS.previous[0]?.tcpa)),
      consent: {
        pageUrl: 'https://publisher.example/loans?email=a@b.example#x',
        trustedFormCertUrl: CERT,
        leadiDToken: LEADID,
      },
    })
    const sent = partners.leadsReceived('lender')[before] as Record<string, unknown>
    expect(sent.legalInformation).toEqual({
      consentsToFcra: 'true',
      fcraLanguage: TEXTS.previous[0]?.fcra,
      consentstoTcpa: 'true',
      tcpaLanguage: TEXTS.previous[0]?.tcpa,
    })
    expect(sent.consentCertificate).toEqual({ trustedFormCertUrl: CERT, leadiDToken: LEADID })
    expect(sent).not.toHaveProperty('consent')
    expect(JSON.stringify(sent)).not.toContain('publisher.example')
    // No certificate: no extension at all.
    await settle(makeLead(legal(TEXTS.fcra)))
    expect(partners.leadsReceived('lender').at(-1)).not.toHaveProperty('consentCertificate')
  })

  it('refuses an unknown key inside consent, as every level of the lead', async () => {
    const res = await submit({
      ...makeLead(legal(TEXTS.fcra)),
      consent: { pageUrl: 'https://a.example/', ip: '1.2.3.4' },
    })
    expect(res.status).toBe(400)
    expect(
      bffErrorSchema
        .parse(await res.json())
        .errors?.map((e) => e.field)
        .join(' '),
    ).toMatch(/consent/)
  })

  it('records the consent with the lead: the operator reads it by lead id, the partner sent it by its Idempotency-Key', async () => {
    const leadId = await settle({
      ...makeLead(legal(TEXTS.fcra, TEXTS.tcpa, 'false')),
      consent: {
        pageUrl: 'https://user:pw@publisher.example/loans/apply?email=a@b.example#step-2',
        trustedFormCertUrl: CERT,
      },
    })
    const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)
    const expected: ConsentRecord = {
      leadId,
      recordedAt: expect.any(String) as unknown as string,
      pageUrl: 'https://publisher.example/loans/apply',
      ipAddress: CLIENT.ipAddress,
      userAgent: CLIENT.userAgent,
      widgetVersion: '0.1.0',
      certificate: { trustedFormCertUrl: CERT },
      fcra: { version: '2026-11', textId: hash(TEXTS.fcra), text: TEXTS.fcra, checked: true },
      tcpa: { version: '2026-11', textId: hash(TEXTS.tcpa), text: TEXTS.tcpa, checked: false },
    }
    const operator = await get(`/api/reports/consent/${leadId}`, OPERATOR)
    expect(operator.status).toBe(200)
    expect(operator.headers.get('cache-control')).toBe('no-store')
    const record = (await operator.json()) as ConsentRecord
    expect(record).toEqual(expected)
    // The partner knows the lead by the Idempotency-Key it received: our request id for it and that partner.
    const [request] = await ledger.db
      .select({ id: partnerRequests.id })
      .from(partnerRequests)
      .where(and(eq(partnerRequests.leadId, leadId), eq(partnerRequests.partnerId, 'lender')))
    const mine = await get(`/api/reports/partners/lender/consent/${request?.id}`, TOKENS.lender)
    expect(mine.status).toBe(200)
    expect(await mine.json()).toEqual(record)
    // Another partner, never sent it, learns nothing: the same 404 as an unknown id, on its own path or another's.
    const unknown = await get(
      `/api/reports/partners/bystander/consent/${crypto.randomUUID()}`,
      TOKENS.bystander,
    )
    expect(unknown.status).toBe(404)
    const notSent = await get(`/api/reports/partners/bystander/consent/${request?.id}`, TOKENS.bystander)
    expect(notSent.status).toBe(404)
    expect(await notSent.json()).toEqual(await unknown.json())
    expect((await get(`/api/reports/partners/lender/consent/${request?.id}`, TOKENS.bystander)).status).toBe(
      404,
    )
    // The operator's route is the operator's: a partner's token gets the 404 of an unknown path.
    expect((await get(`/api/reports/consent/${leadId}`, TOKENS.lender)).status).toBe(404)
    expect((await get(`/api/reports/consent/${leadId}`, 'wrong')).status).toBe(401)
  })

  it('keeps a server-to-server lead’s widget version absent, and each text once however many leads', async () => {
    const leadId = await settle(makeLead(legal(TEXTS.fcra)), {})
    const record = (await (await get(`/api/reports/consent/${leadId}`, OPERATOR)).json()) as ConsentRecord
    expect(record).toMatchObject({ widgetVersion: null, certificate: null, pageUrl: null, tcpa: null })
    // Every lead of this suite gave one of the operator's four texts: four rows at most, each text once.
    const stored = await ledger.db.select({ text: consentTexts.text }).from(consentTexts)
    const operators = [TEXTS.fcra, TEXTS.tcpa, TEXTS.previous[0]?.fcra, TEXTS.previous[0]?.tcpa]
    expect(stored.length).toBeLessThanOrEqual(4)
    expect(new Set(stored.map((row) => row.text)).size).toBe(stored.length)
    for (const row of stored) expect(operators).toContain(row.text)
  })
})
