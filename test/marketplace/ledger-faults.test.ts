/**
 * Nothing reaches a partner that the ledger has not recorded, and nothing a partner sent is silently lost:
 * the database is taken away mid-lead and mid-reply (PostgreSQL: a TCP proxy that is cut; PGlite: held by
 * a transaction that never ends) on fake time. Prints the figure "leads lost under a database cut".
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { Registry } from 'prom-client'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { bffErrorSchema, createdSearchSchema } from '../../src/contract/bff.ts'
import { leads, partnerRequests } from '../../src/ledger/schema.ts'
import { STOPPED } from '../../src/marketplace/fan-out/ask-partner.ts'
import { type FaultyLedger, LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import {
  type FakeTimeMarket,
  type ScriptedPartner,
  startFakeTimeMarket,
} from './support/fake-time-harness.ts'
import { makeLead } from './support/harness.ts'

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 })

const PARTNERS: ScriptedPartner[] = [
  { id: 'alpha', tier: 'first', latencyMs: 2_000, status: 'approved', rate: 11 },
  { id: 'bravo', tier: 'first', latencyMs: 3_000, status: 'approved', rate: 17 },
  { id: 'charlie', tier: 'first', latencyMs: 4_000, status: 'rejected' },
]

describe.each(LEDGER_DRIVERS)('ledger faults on $name (fake time)', (driver) => {
  // One database per driver (opening one costs seconds on a busy machine); a marketplace per test.
  let clock: FakeClock
  let db: FaultyLedger
  let market: FakeTimeMarket | undefined
  beforeAll(async () => {
    clock = createFakeClock()
    db = await driver.openFaulty({ timers: clock.timers, timeoutMs: 2_000 })
  })
  afterEach(async () => {
    await db.up()
    if (market) await clock.runUntil(market.close())
    market = undefined
  })
  afterAll(async () => {
    await db.close()
  })

  async function setUp(config = {}) {
    const metrics = new Registry()
    market = await startFakeTimeMarket({
      ledger: db.ledger,
      clock,
      partners: PARTNERS,
      config,
      metricsRegistry: metrics,
    })
    return { clock, db, m: market, metrics }
  }

  /** `second_look_leads_total` (or `second_look_takeovers_total`) by its one label, as `/metrics` shows it. */
  async function counted(metrics: Registry, name: string, label: string): Promise<number> {
    const line = (await metrics.getSingleMetricAsString(name))
      .split('\n')
      .find((l) => l.includes(`="${label}"}`))
    return Number(line?.split(' ').at(-1))
  }

  const sentTotal = (m: FakeTimeMarket) => PARTNERS.reduce((n, p) => n + m.received(p.id), 0)

  it.each(['cut', 'hang'] as const)(
    'write-ahead: with the database %s, a lead is a 503 with Retry-After within the ledger timeout and no partner is sent it',
    async (mode) => {
      const { clock, db, m, metrics } = await setUp()
      await db.down(mode)
      const answered = m.submit(makeLead())
      const started = clock.now()
      let done = false
      void answered.finally(() => {
        done = true
      })
      // Fake time passes until the answer comes; it must come by the ledger's timeout.
      while (!done && clock.now() - started < 10_000) await clock.tick(100)
      const res = await answered
      expect(clock.now() - started).toBeLessThanOrEqual(2_000)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('2')
      expect(bffErrorSchema.parse(await res.json()).message).toMatch(/sent to no partner/)
      await db.up()
      await clock.tick(15_000)
      expect(sentTotal(m)).toBe(0)
      // Operators see it: a lead withdrawn, none settled.
      expect(await counted(metrics, 'second_look_leads_total', 'withdrawn')).toBe(1)
      expect(await counted(metrics, 'second_look_leads_total', 'with_offers')).toBe(0)
      // The database is back; the pool's connections that the fault broke fail on their own real-time
      // timeouts, which a loaded runner reaches late (seen in CI with two test workers): wait, on the
      // ledger's answer and not on a time, until it answers again.
      await vi.waitFor(() => clock.runUntil(db.ledger.ping(), { maxMs: 5_000 }), {
        timeout: 30_000,
        interval: 100,
      })
      // Once the ledger is back, the same lead goes through, and partners get it once. A client told 503
      // sends it again after Retry-After, as this one does (a few times at most).
      const lead = makeLead()
      let again = await m.submit(lead)
      for (let attempt = 1; again.status === 503 && attempt < 5; attempt++) {
        await clock.tick(2_000)
        again = await m.submit(lead)
      }
      expect(again.status).toBe(201)
      await Promise.all(PARTNERS.map((p) => m.whenReceived(p.id)))
      expect(sentTotal(m)).toBe(3)
    },
  )

  it('a cut mid-reply loses nothing: replies that land while the database is away are retried until it is back', async () => {
    const { clock, db, m } = await setUp()
    const created = []
    for (let i = 0; i < 10; i++) {
      const res = await m.submit(makeLead())
      expect(res.status).toBe(201)
      created.push(createdSearchSchema.parse(await res.json()).rateTable)
    }
    await Promise.all(PARTNERS.map((p) => m.whenReceived(p.id, 10)))
    await db.down()
    // Every reply lands while the database is away (2-4 s), and a while after.
    await clock.tick(8_000)
    await db.up()
    await clock.runUntil(Promise.all(created.map((t) => m.marketplace.settled(t.uuid))), { stepMs: 250 })
    expect(m.marketplace.inFlight).toBe(0)
    let lost = 0
    for (const table of created) {
      const [lead] = await db.ledger.db.select().from(leads).where(eq(leads.id, table.leadUuid))
      const rows = await db.ledger.db
        .select()
        .from(partnerRequests)
        .where(eq(partnerRequests.leadId, table.leadUuid))
      const replied = rows.every((r) => r.status === 'approved' || r.status === 'rejected')
      const search = await db.ledger.getSearch(table.uuid)
      if (lead?.status !== 'complete' || !replied || search?.displayed[0]?.partnerId !== 'bravo') lost++
    }
    console.info(
      `[figure] ${driver.name}: leads lost under a database cut mid-reply: ${lost} of ${created.length}`,
    )
    expect(lost).toBe(0)
    expect(m.logLines).toContainEqual(expect.stringContaining('retrying'))
  })

  it('a cut past every retry ends the lead in a recorded, explained state, never pending for ever', async () => {
    const { clock, db, m, metrics } = await setUp({ writeRetryMs: 5_000 })
    const res = await m.submit(makeLead())
    const { rateTable, accessToken } = createdSearchSchema.parse(await res.json())
    await Promise.all(PARTNERS.map((p) => m.whenReceived(p.id)))
    await db.down()
    await clock.tick(15_000)
    await db.up()
    await clock.runUntil(m.marketplace.settled(rateTable.uuid))
    // Its run gave up, so its lease runs out (3 s) and a lease round takes it over and settles it.
    const statusOf = async () =>
      (await db.ledger.db.select().from(leads).where(eq(leads.id, rateTable.leadUuid)))[0]?.status
    for (let waited = 0; waited < 60_000 && (await statusOf()) === 'pending'; waited += 500) {
      await clock.tick(500)
    }
    const [lead] = await db.ledger.db.select().from(leads).where(eq(leads.id, rateTable.leadUuid))
    const rows = await db.ledger.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.leadId, rateTable.leadUuid))
    if (driver.name === 'postgres') {
      // The replies never reached the database: the lead settles on what was recorded (nothing), and each
      // request says why it has no reply.
      expect(lead).toMatchObject({ status: 'complete' })
      // Operators see both steps: the run left it unsettled, and a takeover planned to settle it on what was
      // recorded. (Whether that settle is counted depends on whether its write answered within the ledger's
      // timeout on this fake clock, or only committed: not asserted.)
      expect(await counted(metrics, 'second_look_leads_total', 'unsettled')).toBe(1)
      expect(await counted(metrics, 'second_look_takeovers_total', 'settled')).toBe(1)
      expect(rows).not.toHaveLength(0)
      for (const row of rows) {
        expect(row, row.partnerId).toMatchObject({ status: 'error' })
        expect(row.reason).toContain(STOPPED)
      }
    } else {
      // PGlite ran the held statements once released: the replies were written after all.
      expect(lead?.status).toBe('complete')
    }
    const table = await (await m.poll(rateTable.uuid, accessToken)).json()
    expect(table.pendingResponses).toEqual([])
  })

  it('a poll while the database is away answers from memory, or 503 with Retry-After when it has nothing', async () => {
    const { clock, db, m } = await setUp()
    const res = await m.submit(makeLead())
    const { rateTable, accessToken } = createdSearchSchema.parse(await res.json())
    expect((await m.poll(rateTable.uuid, accessToken)).status).toBe(200)
    await db.down()
    await clock.tick(1_000)
    const polled = m.poll(rateTable.uuid, accessToken)
    await clock.tick(2_000)
    const stale = await polled
    expect(stale.status).toBe(200)
    expect((await stale.json()).pendingResponses).toHaveLength(3)
    const unknown = randomUUID()
    const never = m.poll(unknown, `token-for-${unknown}`)
    await clock.tick(2_000)
    const refused = await never
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
  })
})
