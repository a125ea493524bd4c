/**
 * No duplicate applicants (docs/decisions/0106-duplicate-applicants.md), on fake time and on both ledgers: the
 * same applicant (SSN, date of birth and contact) within the window reaches no partner again; while the first
 * application's offers can be clicked it gets that search (201, `Second-Look-Duplicate: true`,
 * `secondLook.duplicate`), past that a 409 `duplicate_applicant`; past the window it fans out again; a retry
 * with the same `Idempotency-Key` still replays; two intakes at once fan out once.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { bffErrorSchema, createdSearchSchema } from '../../src/contract/bff.ts'
import { duplicateOfSchema } from '../../src/contract/consent.ts'
import { type Ledger, openLedger } from '../../src/ledger/index.ts'
import type { MarketplaceConfig } from '../../src/marketplace/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import {
  type FakeTimeMarket,
  type ScriptedPartner,
  startFakeTimeMarket,
} from './support/fake-time-harness.ts'
import { makeLead } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const DAY_MS = 24 * 60 * 60 * 1000
const OPERATOR = 'operator-reports-token-0123456789'
const PARTNERS: ScriptedPartner[] = [
  { id: 'lender', tier: 'first', latencyMs: 500, status: 'approved', rate: 25 },
]

describe.each(LEDGER_DRIVERS)('duplicate applicants on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  let m: FakeTimeMarket & { config: Partial<MarketplaceConfig> }
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

  const start = async (config: Partial<MarketplaceConfig> = {}) => {
    m = Object.assign(
      await startFakeTimeMarket({
        ledger,
        clock,
        partners: PARTNERS,
        config: { reportsToken: OPERATOR, duplicateWindowMs: 30 * DAY_MS, ...config },
      }),
      { config },
    )
    return m
  }
  const created = async (res: Response) => {
    expect(res.status).toBe(201)
    return createdSearchSchema.parse(await res.json())
  }
  /**
   * Days pass with the marketplace stopped and started again on the same ledger (a restart, or another
   * replica): the ledger holds the window. Its lease rounds (every second) would otherwise each run on a
   * day of fake time.
   */
  const later = async (ms: number) => {
    const { config } = m
    await m.close()
    await clock.tick(ms)
    await start(config)
  }
  /** Submits `lead` with a new key and lets its auction settle on fake time. */
  const settled = async (lead: unknown) => {
    const res = await m.submit(lead, { 'Idempotency-Key': randomUUID() })
    expect(res.headers.get('Second-Look-Duplicate')).toBeNull()
    const body = await created(res)
    await clock.runUntil(m.marketplace.settled(body.rateTable.uuid))
    return body
  }

  it('asks each partner once: the second application gets the first search, a new token and the marker', async () => {
    await start()
    const lead = makeLead()
    const first = await settled(lead)
    await clock.tick(60_000)
    const res = await m.submit(lead, { 'Idempotency-Key': randomUUID() })
    expect(res.headers.get('Second-Look-Duplicate')).toBe('true')
    expect(res.headers.get('Idempotent-Replayed')).toBeNull()
    const again = await created(res)
    // The first search under a uuid of its own (its links never count as the first lead's).
    expect(again.rateTable.uuid).not.toBe(first.rateTable.uuid)
    expect(again.rateTable.leadUuid).toBe(first.rateTable.leadUuid)
    expect(again.rateTable.offers.map((o) => o.financialInstitutionUuid)).toEqual(['lender'])
    const marker = (again.rateTable.secondLook as Record<string, unknown>).duplicate
    expect(duplicateOfSchema.parse(marker)).toEqual({ firstAppliedAt: first.rateTable.createdAt })
    // The new token polls that search, and only it.
    const poll = await m.poll(again.rateTable.uuid, again.accessToken)
    expect(poll.status).toBe(200)
    expect(((await poll.json()) as { leadUuid: string }).leadUuid).toBe(first.rateTable.leadUuid)
    expect((await m.poll(first.rateTable.uuid, again.accessToken)).status).not.toBe(200)
    expect(m.received('lender')).toBe(1)
    // The same applicant in another spelling of the SSN is the same applicant.
    const person = lead.personalInformation as Record<string, string>
    const respelled = { ...lead, personalInformation: { ...person, ssn: person.ssn?.replaceAll('-', '') } }
    const third = await m.submit(respelled, { 'Idempotency-Key': randomUUID() })
    expect(third.headers.get('Second-Look-Duplicate')).toBe('true')
    expect(m.received('lender')).toBe(1)
  })

  it('a retry with the same Idempotency-Key still replays its own search, with no duplicate marker', async () => {
    await start()
    const lead = makeLead()
    const key = randomUUID()
    const first = await created(await m.submit(lead, { 'Idempotency-Key': key }))
    await clock.runUntil(m.marketplace.settled(first.rateTable.uuid))
    const retry = await m.submit(lead, { 'Idempotency-Key': key })
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    expect(retry.headers.get('Second-Look-Duplicate')).toBeNull()
    const body = await created(retry)
    expect(body.rateTable.leadUuid).toBe(first.rateTable.leadUuid)
    expect((body.rateTable.secondLook as Record<string, unknown>).duplicate).toBeUndefined()
    expect(m.received('lender')).toBe(1)
  })

  it('past the click links’ life (a day) a duplicate is a 409 duplicate_applicant, still sent to nobody', async () => {
    await start()
    const lead = makeLead()
    await settled(lead)
    await later(DAY_MS + 1_000)
    const res = await m.submit(lead, { 'Idempotency-Key': randomUUID() })
    expect(res.status).toBe(409)
    const error = bffErrorSchema.parse(await res.json())
    expect(error.code).toBe('duplicate_applicant')
    expect(error.message).toMatch(/DUPLICATE_WINDOW_DAYS/)
    expect(m.received('lender')).toBe(0)
  })

  it('past the window a new application fans out again, and holds the window from then on', async () => {
    await start({ duplicateWindowMs: 3 * DAY_MS })
    const lead = makeLead()
    const first = await settled(lead)
    await later(3 * DAY_MS)
    const second = await settled(lead)
    expect(second.rateTable.leadUuid).not.toBe(first.rateTable.leadUuid)
    expect(m.received('lender')).toBe(1)
    const third = await m.submit(lead, { 'Idempotency-Key': randomUUID() })
    expect(third.headers.get('Second-Look-Duplicate')).toBe('true')
    expect((await created(third)).rateTable.leadUuid).toBe(second.rateTable.leadUuid)
    expect(m.received('lender')).toBe(1)
  })

  it('two intakes of one applicant at once fan out once', async () => {
    await start()
    const lead = makeLead()
    const answers = await Promise.all(
      [1, 2, 3].map(() => m.submit(lead, { 'Idempotency-Key': randomUUID() })),
    )
    const bodies = await Promise.all(answers.map(created))
    expect(new Set(bodies.map((b) => b.rateTable.leadUuid)).size).toBe(1)
    expect(answers.filter((a) => a.headers.get('Second-Look-Duplicate') === 'true')).toHaveLength(2)
    await clock.runUntil(m.marketplace.settled(bodies[0]?.rateTable.uuid ?? ''))
    expect(m.received('lender')).toBe(1)
  })

  it('DUPLICATE_WINDOW_DAYS=0 turns the check off', async () => {
    await start({ duplicateWindowMs: 0 })
    const lead = makeLead()
    const first = await settled(lead)
    const second = await settled(lead)
    expect(second.rateTable.leadUuid).not.toBe(first.rateTable.leadUuid)
    expect(m.received('lender')).toBe(2)
  })

  it('counts duplicates per day for the operator only, shown and refused apart, JSON and CSV', async () => {
    await start()
    const day = new Date(clock.now()).toISOString().slice(0, 10)
    const lead = makeLead()
    await settled(lead)
    await m.submit(lead, { 'Idempotency-Key': randomUUID() })
    await later(DAY_MS + 1_000)
    await m.submit(lead, { 'Idempotency-Key': randomUUID() })
    const next = new Date(clock.now()).toISOString().slice(0, 10)
    const report = async (query: string, token = OPERATOR) =>
      m.app.request(`http://bff.test/api/reports/duplicates?from=${day}&to=${next}${query}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    const json = (await (await report('')).json()) as {
      duplicates: number
      daily: Array<{ date: string; duplicates: number; shown: number; refused: number }>
    }
    const mine = (date: string) => json.daily.find((d) => d.date === date)
    expect(mine(day)).toMatchObject({ shown: expect.any(Number) })
    expect(mine(day)?.shown).toBeGreaterThanOrEqual(1)
    expect(mine(next)?.refused).toBeGreaterThanOrEqual(1)
    const csv = await report('&format=csv')
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/)
    expect((await csv.text()).split('\r\n')[0]).toBe('date,duplicates,shown,refused')
    expect((await report('', 'wrong-token')).status).toBe(401)
  })
})

const databaseUrl = process.env.DATABASE_URL

// Two replicas, each its own ledger connection pool on one PostgreSQL schema: their writes are concurrent
// statements, and the applicant claim's primary key is what lets one of them through.
describe.runIf(databaseUrl)('duplicate applicants across two replicas on one PostgreSQL', () => {
  const schema = `test_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  let clock: FakeClock
  let ledgers: Ledger[] = []
  let markets: FakeTimeMarket[] = []
  beforeAll(async () => {
    clock = createFakeClock()
    const open = (drop: boolean) =>
      openLedger({ databaseUrl, schema, dropSchemaOnClose: drop, maxConnections: 4, timers: clock.timers })
    ledgers = [await open(false), await open(true)]
    markets = await Promise.all(
      ledgers.map((ledger) =>
        startFakeTimeMarket({
          ledger,
          clock,
          partners: PARTNERS,
          config: { duplicateWindowMs: 30 * DAY_MS },
        }),
      ),
    )
  })
  afterAll(async () => {
    for (const market of markets) await market.close()
    for (const ledger of ledgers) await ledger.close()
  })

  it('one applicant sent to both at once, ten times over, fans out once each time', async () => {
    for (let round = 1; round <= 10; round++) {
      const lead = makeLead()
      const answers = await Promise.all(
        [...markets, ...markets].map((market) => market.submit(lead, { 'Idempotency-Key': randomUUID() })),
      )
      const bodies = await Promise.all(
        answers.map(async (a) => {
          expect(a.status).toBe(201)
          return createdSearchSchema.parse(await a.json())
        }),
      )
      expect(new Set(bodies.map((b) => b.rateTable.leadUuid)).size).toBe(1)
      const uuid = bodies[0]?.rateTable.uuid ?? ''
      await clock.runUntil(Promise.all(markets.map((market) => market.marketplace.settled(uuid))))
      expect(markets.reduce((sent, market) => sent + market.received('lender'), 0)).toBe(round)
    }
  })
})
