/**
 * Leases on pending leads, on both databases: the owner renews what it holds (even once it ran out), a lease that ran out is
 * claimed by exactly one replica with what the ledger recorded (requests, offers, sealed copy), and a
 * settled or withdrawn lead is never claimed and keeps no sealed copy, whichever of the withdrawal and its
 * create commits first.
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Ledger, NewLead, SentRequest } from '../../src/ledger/index.ts'
import { applicantClaims, leadHandoffs, leads } from '../../src/ledger/schema.ts'
import { LEDGER_DRIVERS } from './support/ledger-drivers.ts'

const T0 = new Date('2026-03-02T10:00:00.000Z')
const at = (ms: number) => new Date(T0.getTime() + ms)

describe.each(LEDGER_DRIVERS)('lead leases on $name', (driver) => {
  let ledger: Ledger
  beforeAll(async () => {
    ledger = await driver.open()
  }, 30_000)
  afterAll(async () => {
    await ledger.close()
  })

  async function createLead(owner: string, overrides: Partial<NewLead> = {}) {
    const lead: NewLead = {
      id: randomUUID(),
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      createdAt: T0,
      deadlineAt: at(12_000),
      owner,
      leaseUntil: at(3_000),
      sealed: `v1.sealed-${owner}`,
      ...overrides,
    }
    const requests: SentRequest[] = [
      { id: randomUUID(), partnerId: 'alpha', tier: 'first', sentAt: T0 },
      { id: randomUUID(), partnerId: 'bravo', tier: 'first', sentAt: T0 },
    ]
    await ledger.createLead(lead, requests)
    return { lead, requests }
  }

  /** Claims until none is left, so leads of other tests in this ledger do not interfere. */
  const claimMine = async (owner: string, now: Date, ids: string[]) =>
    (await ledger.claimLeads({ owner, now, until: new Date(now.getTime() + 3_000), limit: 1000 })).filter(
      (c) => ids.includes(c.lead.id),
    )

  it('renews only the leases its owner still holds', async () => {
    const { lead } = await createLead('a')
    expect(await ledger.renewLeases('a', [lead.id], at(5_000))).toEqual([lead.id])
    expect(await ledger.renewLeases('b', [lead.id], at(5_000))).toEqual([])
    const [row] = await ledger.db.select().from(leads).where(eq(leads.id, lead.id))
    expect(row?.leaseUntil).toEqual(at(5_000))
  })

  it('an owner re-asserts a lease that ran out while no replica claimed it (it was away from the ledger)', async () => {
    const { lead } = await createLead('a')
    // The lease ran out at 3 s; at 9 s nobody has claimed it, and the owner's renewal holds it again.
    expect(await ledger.renewLeases('a', [lead.id], at(12_000))).toEqual([lead.id])
    expect(await claimMine('b', at(9_000), [lead.id])).toEqual([])
  })

  it('a lease that has not run out is not claimed; one that has is claimed once, with what was recorded', async () => {
    const { lead, requests } = await createLead('a')
    const [alpha, bravo] = requests
    if (!alpha || !bravo) throw new Error('two requests')
    await ledger.recordReply({
      requestId: alpha.id,
      leadId: lead.id,
      partnerId: 'alpha',
      status: 'approved',
      latencyMs: 40,
      repliedAt: at(40),
      offers: [
        {
          id: randomUUID(),
          position: 0,
          rate: 9,
          productType: 'personal_loan',
          recommendationScore: 0.5,
          clickUrl: 'https://alpha.example/c',
        },
      ],
    })
    expect(await claimMine('b', at(2_999), [lead.id])).toEqual([])
    const [claimed, ...more] = await claimMine('b', at(3_001), [lead.id])
    expect(more).toEqual([])
    expect(claimed?.lead.id).toBe(lead.id)
    expect(claimed?.sealed).toBe('v1.sealed-a')
    expect(claimed?.requests.map((r) => [r.partnerId, r.status])).toEqual([
      ['alpha', 'approved'],
      ['bravo', 'pending'],
    ])
    expect(claimed?.offers).toEqual([expect.objectContaining({ partnerId: 'alpha', tier: 'first', rate: 9 })])
    // Now b's: a's renewal finds it gone, and c cannot claim it before b's lease runs out.
    expect(await ledger.renewLeases('a', [lead.id], at(6_000))).toEqual([])
    expect(await claimMine('c', at(4_000), [lead.id])).toEqual([])
  })

  it('two replicas claiming at once never take the same lead', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, () => createLead('dead')))
    const ids = created.map((c) => c.lead.id)
    const [b, c] = await Promise.all([claimMine('b', at(4_000), ids), claimMine('c', at(4_000), ids)])
    const taken = [...b, ...c].map((x) => x.lead.id).sort()
    expect(taken).toEqual([...ids].sort())
  })

  it('a settled lead keeps no sealed copy and is never claimed', async () => {
    const { lead } = await createLead('a')
    await ledger.closeTier([], { kind: 'settle', winners: [], outcomes: [], completedAt: at(500) }, lead.id)
    expect(await ledger.db.select().from(leadHandoffs).where(eq(leadHandoffs.leadId, lead.id))).toEqual([])
    expect(await claimMine('b', at(60_000), [lead.id])).toEqual([])
  })

  it('a withdrawn lead (its create was answered 503) fails, keeps no sealed copy and is never claimed', async () => {
    const applicant = {
      key: `applicant-${randomUUID()}`,
      expiresAt: at(30 * 86_400_000),
      contactKey: 'contact',
    }
    const { lead } = await createLead('a', { applicant })
    await ledger.withdrawLead(lead.id, at(100), 'not confirmed in time')
    const [row] = await ledger.db.select().from(leads).where(eq(leads.id, lead.id))
    expect(row).toMatchObject({ status: 'failed', failureReason: 'not confirmed in time', owner: null })
    expect(await ledger.db.select().from(leadHandoffs).where(eq(leadHandoffs.leadId, lead.id))).toEqual([])
    expect(await claimMine('b', at(60_000), [lead.id])).toEqual([])
    // It reached no partner, so it holds no duplicate window: the applicant's next application is written.
    expect(await ledger.db.select().from(applicantClaims).where(eq(applicantClaims.leadId, lead.id))).toEqual(
      [],
    )
    const next = await createLead('a', { applicant })
    const [written] = await ledger.db.select().from(leads).where(eq(leads.id, next.lead.id))
    expect(written?.applicantKey).toBe(applicant.key)
  })

  it('a withdrawal that commits before its lead is withdrawn for good: the late create is not written', async () => {
    const id = randomUUID()
    await ledger.withdrawLead(id, at(100), 'not confirmed in time')
    await createLead('a', { id }).catch(() => {})
    expect(await ledger.db.select().from(leads).where(eq(leads.id, id))).toEqual([])
  })

  it('a lead row that lands after its withdrawal anyway is never claimed, and the sweep fails it, releasing its claim', async () => {
    const id = randomUUID()
    await ledger.withdrawLead(id, at(100), 'not confirmed in time')
    // A statement that read its snapshot before the withdrawal committed (PostgreSQL, another connection).
    await ledger.db.insert(leads).values({
      id,
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      status: 'pending',
      createdAt: T0,
      deadlineAt: at(12_000),
      owner: 'a',
      leaseUntil: at(3_000),
    })
    const applicantKey = `applicant-${randomUUID()}`
    await ledger.db
      .insert(applicantClaims)
      .values({ applicantKey, leadId: id, claimedAt: T0, expiresAt: at(30 * 86_400_000) })
    expect(await claimMine('b', at(60_000), [id])).toEqual([])
    // The retention sweep fails it, as the withdrawal would have.
    const purged = await ledger.purgeExpired({ consentBefore: T0, now: at(60_000) })
    expect(purged.withdrawnLate).toBe(1)
    const [row] = await ledger.db.select().from(leads).where(eq(leads.id, id))
    expect(row).toMatchObject({ status: 'failed', owner: null })
    expect(await ledger.db.select().from(applicantClaims).where(eq(applicantClaims.leadId, id))).toEqual([])
  })
})
