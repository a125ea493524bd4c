/**
 * @module Fan-out to real loopback partners and a real ledger. Windows are tested on a fake clock that the
 * marketplace and the partners' latencies share: each test waits for partners to receive or answer (real
 * events), then moves the clock to the instant under test, so no test measures or waits for real time.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { offers, partnerRequests } from '../../src/ledger/schema.ts'
import type { SimulatedPartnerSpec } from '../../src/partner-kit/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { watch } from '../support/promises.ts'
import { type Harness, makeLead, startHarness, submitAndSettle } from './support/harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

/** Partner replies the marketplace has logged so far (timeouts included). */
const repliesLogged = (h: Harness) => h.logLines.filter((l) => JSON.parse(l).msg === 'partner reply').length

/** Submits a lead and starts watching its auction, which settles only as the test moves the clock. */
async function submitOnClock(h: Harness) {
  const res = await h.submit(makeLead())
  expect(res.status).toBe(201)
  const created = createdSearchSchema.parse(await res.json())
  const run = watch(h.marketplace.settled(created.rateTable.uuid))
  return { created, settled: run.promise, isSettled: run.settled }
}

async function requestsOf(ledger: Ledger, leadId: string) {
  const rows = await ledger.db.select().from(partnerRequests).where(eq(partnerRequests.leadId, leadId))
  return Object.fromEntries(rows.map((r) => [r.partnerId, r]))
}

describe.each(LEDGER_DRIVERS)('fan-out on $name', (driver) => {
  let ledger: Ledger
  const open: Harness[] = []
  // Every test on a fake clock the test alone moves: a partner answering at once (latency 0) is never
  // timed out by a busy machine, and windows end exactly when a test says.
  const harness = async (partners: SimulatedPartnerSpec[], config = {}, clock = createFakeClock()) => {
    const h = await startHarness({ ledger, partners, config, clock })
    open.push(h)
    return h
  }
  beforeAll(async () => {
    ledger = await driver.open()
  }, 30_000)
  afterAll(async () => {
    for (const h of open) await h.close()
    await ledger.close()
  })

  it('docs/partner-interface.md: "When first-look partners return no offers, the details go to second-look partners"', async () => {
    const h = await harness([
      { id: 'f-reject', name: 'F Reject', tier: 'first', behavior: 'reject', latencyMs: 0 },
      { id: 'f-error', name: 'F Error', tier: 'first', behavior: 'error', latencyMs: 0 },
      { id: 's-approve', name: 'S Approve', tier: 'second', behavior: 'approve', latencyMs: 0 },
    ])
    const { created, final } = await submitAndSettle(h)
    expect(h.partners.requestCount('s-approve')).toBe(1)
    expect(final.offers.length).toBeGreaterThan(0)
    const rows = await requestsOf(ledger, created.rateTable.leadUuid)
    expect(rows['f-reject']).toMatchObject({
      tier: 'first',
      status: 'rejected',
      reason: 'outside our credit box (simulated)',
    })
    expect(rows['f-error']).toMatchObject({ tier: 'first', status: 'error' })
    expect(rows['s-approve']).toMatchObject({ tier: 'second', status: 'approved' })
  })

  it('second look is not asked when first look produced an offer', async () => {
    const h = await harness([
      { id: 'f-approve', name: 'F Approve', tier: 'first', behavior: 'approve', latencyMs: 0 },
      { id: 's-never', name: 'S Never', tier: 'second', behavior: 'approve', latencyMs: 0 },
    ])
    const { created, final } = await submitAndSettle(h)
    expect(final.offers.length).toBeGreaterThan(0)
    expect(h.partners.requestCount('s-never')).toBe(0)
    expect(Object.keys(await requestsOf(ledger, created.rateTable.leadUuid))).toEqual(['f-approve'])
  })

  it('a partner past its window is dropped for this lead and recorded as timed out at the window; the others still count', async () => {
    const clock = createFakeClock()
    const h = await harness(
      [
        { id: 'on-time', name: 'On Time', tier: 'first', behavior: 'approve', latencyMs: 5 },
        {
          id: 'too-late',
          name: 'Too Late',
          tier: 'first',
          behavior: 'approve',
          latencyMs: 5_000,
          bidMultiplier: 10,
        },
      ],
      { deadlineMs: 250 },
      clock,
    )
    const { created, settled, isSettled } = await submitOnClock(h)
    await Promise.all([h.partners.whenReceived('on-time'), h.partners.whenReceived('too-late')])
    await clock.tick(5)
    await h.whenReplies(1)
    // 1 ms before the window ends the late partner is still awaited.
    await clock.tick(244)
    expect(repliesLogged(h)).toBe(1)
    expect(isSettled()).toBe(false)
    await clock.tick(1)
    await settled
    const rows = await requestsOf(ledger, created.rateTable.leadUuid)
    // Sent at intake, the request's window is the whole 250 ms deadline.
    expect(rows['too-late']).toMatchObject({
      status: 'timeout',
      offerCount: 0,
      reason: 'no reply within 250 ms',
      latencyMs: 250,
    })
    expect(rows['on-time']).toMatchObject({ status: 'approved', latencyMs: 5 })
    // The late partner's bid (ten times the other's) would win: it is not shown.
    const final = await (await h.poll(created.rateTable.uuid, created.accessToken)).json()
    const shown = final.offers.map((o: { financialInstitutionUuid: string }) => o.financialInstitutionUuid)
    expect(shown).toEqual(expect.arrayContaining(['on-time']))
    expect(shown).not.toContain('too-late')
  })

  it('partners still out at the deadline time out together: their replies are one ledger write, the settle one more', async () => {
    const clock = createFakeClock()
    const ids = ['late-a', 'late-b', 'late-c', 'late-d']
    const h = await harness(
      ids.map((id) => ({
        id,
        name: id,
        tier: 'first' as const,
        behavior: 'approve' as const,
        latencyMs: 5_000,
      })),
      { deadlineMs: 250 },
      clock,
    )
    const execute = vi.spyOn(ledger.db, 'execute')
    try {
      const { created, settled } = await submitOnClock(h)
      await Promise.all(ids.map((id) => h.partners.whenReceived(id)))
      await clock.tick(250)
      await settled
      // The lead; the three timeouts before the last; the last with the settle. A timer per partner
      // would write between every two of them and push the settle further past the deadline.
      expect(execute).toHaveBeenCalledTimes(3)
      const rows = Object.values(await requestsOf(ledger, created.rateTable.leadUuid))
      expect(rows.map((r) => [r.partnerId, r.status, r.reason, r.latencyMs]).sort()).toEqual(
        ids.map((id) => [id, 'timeout', 'no reply within 250 ms', 250]),
      )
    } finally {
      execute.mockRestore()
    }
  })

  it('a partner registered with a shorter window is timed out at its own window', async () => {
    const clock = createFakeClock()
    const h = await harness(
      [{ id: 'short', name: 'Short', tier: 'first', behavior: 'approve', latencyMs: 2_000, timeoutMs: 60 }],
      { deadlineMs: 2_000 },
      clock,
    )
    const { created, settled, isSettled } = await submitOnClock(h)
    await h.partners.whenReceived('short')
    await clock.tick(59)
    expect(repliesLogged(h)).toBe(0)
    expect(isSettled()).toBe(false)
    await clock.tick(1)
    await settled
    expect((await requestsOf(ledger, created.rateTable.leadUuid)).short).toMatchObject({
      status: 'timeout',
      reason: 'no reply within 60 ms',
      latencyMs: 60,
    })
  })

  it('garbage, malformed, oversized and non-2xx replies are errors with their cause; no offer leaks from them', async () => {
    const h = await harness([
      { id: 'garbage', name: 'Garbage', tier: 'first', behavior: 'garbage', latencyMs: 0 },
      { id: 'malformed', name: 'Malformed', tier: 'first', behavior: 'malformed', latencyMs: 0 },
      { id: 'oversized', name: 'Oversized', tier: 'first', behavior: 'oversized', latencyMs: 0 },
      { id: 'http-error', name: 'Http Error', tier: 'first', behavior: 'http-error', latencyMs: 0 },
      { id: 'good', name: 'Good', tier: 'first', behavior: 'approve', latencyMs: 0 },
    ])
    const { created, final } = await submitAndSettle(h)
    const rows = await requestsOf(ledger, created.rateTable.leadUuid)
    expect(rows.garbage).toMatchObject({ status: 'error', httpStatus: 200 })
    expect(rows.garbage?.reason).toMatch(/^reply is not JSON/)
    expect(rows.malformed).toMatchObject({ status: 'error', httpStatus: 200 })
    expect(rows.malformed?.reason).toMatch(/^reply breaks the partner contract \(offers\.0\.rate: /)
    expect(rows.oversized).toMatchObject({ status: 'error', httpStatus: 200 })
    expect(rows.oversized?.reason).toMatch(/exceeds the 262144-byte limit/)
    expect(rows['http-error']).toMatchObject({ status: 'error', httpStatus: 503 })
    expect(rows['http-error']?.reason).toBe('HTTP 503 from the partner: maintenance window (simulated)')
    expect(rows.good?.status).toBe('approved')
    expect(final.offers.length).toBeGreaterThan(0)
    for (const offer of final.offers) expect(offer.financialInstitutionUuid, String(offer.name)).toBe('good')
  })

  it('an unreachable partner is an error naming the transport failure', async () => {
    const h = await harness([{ id: 'fine', name: 'Fine', tier: 'first', behavior: 'reject', latencyMs: 0 }])
    await h.partners.close()
    const { created } = await submitAndSettle(h)
    const row = (await requestsOf(ledger, created.rateTable.leadUuid)).fine
    expect(row?.status).toBe('error')
    expect(row?.reason).toMatch(/^request failed: ECONNREFUSED/)
  })

  it('phase1: only the highest bid of the lead is displayed', async () => {
    const h = await harness(
      [
        { id: 'p1-a', name: 'P1 A', tier: 'first', behavior: 'approve', latencyMs: 0 },
        { id: 'p1-b', name: 'P1 B', tier: 'first', behavior: 'approve', latencyMs: 0, bidMultiplier: 1.5 },
      ],
      { winnerPolicy: 'phase1' },
    )
    const { created, final } = await submitAndSettle(h)
    // Score 620 is "fair": the reference rules bid 14.5 on an installment loan and 12 on debt relief.
    const all = await ledger.db.select().from(offers).where(eq(offers.leadId, created.rateTable.leadUuid))
    expect(all).toHaveLength(4)
    expect(final.offers).toHaveLength(1)
    expect(final.offers[0]).toMatchObject({
      financialInstitutionUuid: 'p1-b',
      productType: 'installment_loan',
      rank: 1,
    })
    expect(Math.max(...all.map((o) => o.rate))).toBe(21.75)
  })

  it('phase2: the highest bid of each product type is displayed, one per sub-type', async () => {
    const h = await harness(
      [
        { id: 'p2-a', name: 'P2 A', tier: 'first', behavior: 'approve', latencyMs: 0 },
        { id: 'p2-b', name: 'P2 B', tier: 'first', behavior: 'approve', latencyMs: 0, bidMultiplier: 1.5 },
      ],
      { winnerPolicy: 'phase2' },
    )
    const { final } = await submitAndSettle(h)
    expect(final.offers.map((o) => [o.productType, o.financialInstitutionUuid, o.rank])).toEqual([
      ['installment_loan', 'p2-b', 1],
      ['debt_relief', 'p2-b', 2],
    ])
  })

  it('records each partner reply in the log without the lead', async () => {
    const h = await harness([
      { id: 'logged', name: 'Logged', tier: 'first', behavior: 'reject', latencyMs: 0 },
    ])
    const { created } = await submitAndSettle(h)
    const line = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'partner reply')
    expect(line).toMatchObject({
      leadId: created.rateTable.leadUuid,
      partnerId: 'logged',
      status: 'rejected',
    })
  })
})
