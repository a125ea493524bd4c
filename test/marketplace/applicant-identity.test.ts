/**
 * An applicant's data belongs to the applicant (docs/decisions/0106-duplicate-applicants.md), through the
 * marketplace's own HTTP API, on fake time and on both ledgers: whoever sends an applicant's SSN and date of
 * birth with another contact gets nothing of the first application, and the same answer whether or when that
 * person applied; one SSN reaches partners with at most its cap of dates of birth; an applicant who cannot be
 * real is a 400 naming the field; a duplicate's links never count as the first application's; the operator
 * reviews held applications and releases a claim.
 */
import { randomInt, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { bffErrorSchema, createdSearchSchema } from '../../src/contract/bff.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { clicks, impressions } from '../../src/ledger/schema.ts'
import type { MarketplaceConfig } from '../../src/marketplace/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { distinctDateOfBirth, issuedSsn } from '../support/applicants.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import {
  type FakeTimeMarket,
  type ScriptedPartner,
  startFakeTimeMarket,
} from './support/fake-time-harness.ts'
import { CLIENT, makeIssuedLead } from './support/harness.ts'

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

const DAY_MS = 24 * 60 * 60 * 1000
const OPERATOR = 'operator-reports-token-0123456789'
const PARTNERS: ScriptedPartner[] = [
  { id: 'lender', tier: 'first', latencyMs: 500, status: 'approved', rate: 25 },
]

type Lead = Record<string, unknown> & { personalInformation: Record<string, string> }

/** A lead of a real-looking applicant: an issued SSN, a date of birth and a contact of its own. */
function applicant(): Lead {
  const lead = makeIssuedLead() as Lead
  const n = randomUUID().slice(0, 8)
  return {
    ...lead,
    personalInformation: {
      ...lead.personalInformation,
      email: `applicant.${n}@example.com`,
      primaryPhone: `202-555-${String(randomInt(0, 10_000)).padStart(4, '0')}`,
    },
  }
}

/** Someone else with the applicant's SSN and date of birth: another name, contact and address. */
function impostorOf(lead: Lead): Lead {
  return {
    ...lead,
    personalInformation: {
      ...lead.personalInformation,
      firstName: 'Mallory',
      lastName: 'Other',
      email: `mallory.${randomUUID().slice(0, 8)}@example.net`,
      primaryPhone: '303-555-0199',
      address1: '9 Elsewhere Road',
    },
  }
}

describe.each(LEDGER_DRIVERS)('an applicant’s data on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  let m: FakeTimeMarket & { config: Partial<MarketplaceConfig>; partners: ScriptedPartner[] }
  beforeAll(async () => {
    clock = createFakeClock()
    ledger = await driver.open({ timers: clock.timers })
  })
  afterAll(async () => {
    await ledger.close()
  })
  afterEach(async () => {
    await m?.close()
  })

  const start = async (config: Partial<MarketplaceConfig> = {}, partners = PARTNERS) => {
    m = Object.assign(
      await startFakeTimeMarket({
        ledger,
        clock,
        partners,
        config: { reportsToken: OPERATOR, duplicateWindowMs: 30 * DAY_MS, ...config },
      }),
      { config, partners },
    )
    return m
  }
  /** Days pass with the marketplace stopped and started again on the same ledger. */
  const later = async (ms: number) => {
    const { config, partners } = m
    await m.close()
    await clock.tick(ms)
    await start(config, partners)
  }
  const created = async (res: Response) => {
    expect(res.status).toBe(201)
    return createdSearchSchema.parse(await res.json())
  }
  const submit = (lead: unknown) => m.submit(lead, { 'Idempotency-Key': randomUUID() })
  /** Submits and lets the search end: its last rate table as polled. */
  const toTheEnd = async (res: Response) => {
    const body = await created(res)
    await clock.runUntil(m.marketplace.settled(body.rateTable.uuid))
    await clock.tick(10_000)
    const poll = await m.poll(body.rateTable.uuid, body.accessToken)
    expect(poll.status).toBe(200)
    return { created: body, last: (await poll.json()) as Record<string, unknown> }
  }
  /** What a stranger can compare of an answer: status, headers that matter, and the body's shape. */
  const shape = async (res: Response) => {
    const body = (await res.clone().json()) as { rateTable: Record<string, unknown> }
    const table = body.rateTable
    return {
      status: res.status,
      duplicate: res.headers.get('Second-Look-Duplicate'),
      keys: Object.keys(body).sort(),
      tableKeys: Object.keys(table).sort(),
      offers: table.offers,
      pending: (table.pendingResponses as Array<{ partner: { uuid: string } }>).map((p) => p.partner.uuid),
      secondLookKeys: Object.keys(table.secondLook as object).sort(),
    }
  }

  it('another contact with the SSN and date of birth gets no search, token, link or offer of the first', async () => {
    await start()
    const lead = applicant()
    const first = await toTheEnd(await submit(lead))
    expect(m.received('lender')).toBe(1)
    await clock.tick(60_000)
    const res = await submit(impostorOf(lead))
    expect(res.headers.get('Second-Look-Duplicate')).toBeNull()
    const text = await res.clone().text()
    for (const secret of [
      first.created.rateTable.uuid,
      first.created.rateTable.leadUuid,
      first.created.accessToken,
      ...first.created.rateTable.offers.map((o) => o.url),
      'duplicate',
      'firstAppliedAt',
    ]) {
      expect(text).not.toContain(secret)
    }
    const held = await toTheEnd(res)
    expect(held.last.offers).toEqual([])
    expect(held.last.pendingResponses).toEqual([])
    expect(m.received('lender')).toBe(1)
  })

  it('to a stranger, never applied, applied today and applied ten days ago answer alike', async () => {
    // A lender that declines: a fresh applicant's search then ends as a held one does, with no offer.
    await start({}, [{ id: 'lender', tier: 'first', latencyMs: 500, status: 'rejected' }])
    const today = applicant()
    const tenDaysAgo = applicant()
    await toTheEnd(await submit(tenDaysAgo))
    await later(10 * DAY_MS)
    await toTheEnd(await submit(today))
    await clock.tick(60_000)
    const answers = [
      await submit(impostorOf(applicant())),
      await submit(impostorOf(today)),
      await submit(impostorOf(tenDaysAgo)),
    ]
    const [fresh, ...others] = await Promise.all(answers.map(shape))
    for (const other of others) expect(other).toEqual(fresh)
    const ends = await Promise.all(answers.map(async (a) => (await toTheEnd(a)).last))
    for (const end of ends) {
      expect(end.offers).toEqual([])
      expect(end.pendingResponses).toEqual([])
    }
  })

  it('one SSN with 24 dates of birth reaches partners with at most its cap (2) of them', async () => {
    await start()
    const ssn = issuedSsn()
    for (let i = 0; i < 24; i++) {
      const lead = applicant()
      const person = { ...lead.personalInformation, ssn, dateOfBirth: distinctDateOfBirth() }
      await toTheEnd(await submit({ ...lead, personalInformation: person }))
    }
    expect(m.received('lender')).toBe(2)
  })

  it('refuses every applicant who cannot be real with a 400 naming the field, and sends nothing', async () => {
    await start()
    const year = new Date(clock.now()).getUTCFullYear()
    const person = (change: Record<string, string>) => (l: Lead) => ({
      ...l,
      personalInformation: { ...l.personalInformation, ...change },
    })
    const cases: Array<[string, (lead: Lead) => Lead]> = [
      ['personalInformation.dateOfBirth', person({ dateOfBirth: '2099-01-01' })],
      ['personalInformation.dateOfBirth', person({ dateOfBirth: `${year - 10}-05-01` })],
      ['personalInformation.dateOfBirth', person({ dateOfBirth: `${year - 130}-05-01` })],
      ['personalInformation.ssn', person({ ssn: '000-12-3456' })],
      ['personalInformation.ssn', person({ ssn: '666-12-3456' })],
      ['personalInformation.ssn', person({ ssn: '912-12-3456' })],
      ['personalInformation.ssn', person({ ssn: '123-00-3456' })],
      ['personalInformation.ssn', person({ ssn: '123-45-0000' })],
      [
        'loanInformation.loanAmount',
        (l) => ({ ...l, loanInformation: { purpose: 'other', loanAmount: 1e308 } }),
      ],
      ['financialInformation.annualIncome', (l) => ({ ...l, financialInformation: { annualIncome: 1e12 } })],
    ]
    for (const [field, spoil] of cases) {
      const res = await submit(spoil(applicant()))
      expect(res.status, field).toBe(400)
      const error = bffErrorSchema.parse(await res.json())
      expect(
        error.errors?.map((e) => e.field),
        JSON.stringify(error),
      ).toContain(field)
    }
    expect(m.received('lender')).toBe(0)
  })

  it('a duplicate’s links redirect but never count as the first application’s click or impression', async () => {
    await start()
    const lead = applicant()
    await toTheEnd(await submit(lead))
    const again = await created(await submit(lead))
    expect(again.rateTable.offers).toHaveLength(1)
    const offer = again.rateTable.offers[0]
    if (offer === undefined) throw new Error('no offer')
    const click = await m.app.request(offer.url)
    expect(click.status).toBe(302)
    expect(click.headers.get('location')).toMatch(/^https:\/\/lender\.example\/click\//)
    for (const pixel of offer.impressionTrackingPixelUrls ?? [])
      expect((await m.app.request(pixel)).status).toBe(200)
    const leadId = again.rateTable.leadUuid ?? ''
    expect(await ledger.db.select().from(clicks).where(eq(clicks.leadId, leadId))).toEqual([])
    expect(await ledger.db.select().from(impressions).where(eq(impressions.leadId, leadId))).toEqual([])
    // Its polls read the first search under the duplicate's own uuid, with the same uncounted links.
    const poll = (await (await m.poll(again.rateTable.uuid, again.accessToken)).json()) as {
      offers: Array<{ url: string }>
    }
    expect(poll.offers[0]?.url).toBe(offer.url)
  })

  it('the operator sees a held application with its address, and releasing it lets the person apply', async () => {
    await start()
    const squatter = applicant()
    await toTheEnd(await submit(squatter))
    await later(2 * DAY_MS)
    const person = impostorOf(squatter)
    await toTheEnd(await submit(person))
    expect(m.received('lender')).toBe(0)
    const from = new Date(clock.now() - DAY_MS).toISOString().slice(0, 10)
    const to = new Date(clock.now() + DAY_MS).toISOString().slice(0, 10)
    const auth = { Authorization: `Bearer ${OPERATOR}` }
    const list = await m.app.request(`http://bff.test/api/reports/held-applications?from=${from}&to=${to}`, {
      headers: auth,
    })
    expect(list.status).toBe(200)
    const { held } = (await list.json()) as { held: Array<Record<string, unknown>> }
    expect(held).toHaveLength(1)
    expect(held[0]).toMatchObject({ reason: 'identity', ipAddress: CLIENT.ipAddress, releasedAt: null })
    expect(JSON.stringify(held)).not.toContain(person.personalInformation.ssn)
    const release = (id: string, token = OPERATOR) =>
      m.app.request(`http://bff.test/api/reports/held-applications/${id}/release`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      })
    expect((await release(String(held[0]?.id), 'wrong-token')).status).toBe(401)
    expect((await release(String(held[0]?.id))).status).toBe(200)
    expect((await release(String(held[0]?.id))).status).toBe(404)
    const sent = await toTheEnd(await submit(person))
    expect(m.received('lender')).toBe(1)
    expect(sent.last.offers).toHaveLength(1)
  })
})
