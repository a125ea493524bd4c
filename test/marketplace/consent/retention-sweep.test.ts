/**
 * @module The retention sweep (docs/decisions/0105-consent-records.md), on fake time and both ledgers: every
 * hour it deletes the consent records older than the retention and the applicant claims whose window has
 * ended, and nothing younger; the marketplace runs it from its start.
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../../src/contract/bff.ts'
import type { Ledger, NewLead } from '../../../src/ledger/index.ts'
import {
  applicantClaims,
  consentRecords,
  heldApplications,
  withdrawnLeads,
} from '../../../src/ledger/schema.ts'
import { sandboxConsentTexts } from '../../../src/marketplace/consent/consent-texts.ts'
import { startRetentionSweep } from '../../../src/marketplace/consent/retention-sweep.ts'
import { LEDGER_DRIVERS } from '../../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts'
import { startFakeTimeMarket } from '../support/fake-time-harness.ts'
import { makeLead } from '../support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS

describe.each(LEDGER_DRIVERS)('consent retention on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  beforeAll(async () => {
    clock = createFakeClock()
    ledger = await driver.open({ timers: clock.timers })
  })
  afterAll(async () => {
    await ledger.close()
  })

  /** A lead made `ageMs` ago, with its consent record and an applicant claim of `windowMs`. */
  async function leadAged(ageMs: number, windowMs: number): Promise<string> {
    const texts = sandboxConsentTexts()
    const createdAt = new Date(clock.now() - ageMs)
    const lead: NewLead = {
      id: randomUUID(),
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      createdAt,
      deadlineAt: createdAt,
      applicant: {
        key: `applicant-${randomUUID()}`,
        expiresAt: new Date(createdAt.getTime() + windowMs),
        contactKey: `contact-${randomUUID()}`,
      },
      consent: {
        fcra: [...texts.fcra.values()][0] as NonNullable<NewLead['consent']>['fcra'],
        ipAddress: '203.0.113.7',
        userAgent: 'Mozilla/5.0 (Test)',
      },
    }
    const result = await ledger.createLead(lead, [])
    expect(result.created).toBe(true)
    return lead.id
  }
  const recordOf = async (leadId: string) =>
    (await ledger.db.select().from(consentRecords).where(eq(consentRecords.leadId, leadId))).length
  const claimOf = async (leadId: string) =>
    (await ledger.db.select().from(applicantClaims).where(eq(applicantClaims.leadId, leadId))).length

  it('deletes records past the retention and claims past their window, every hour, and nothing younger', async () => {
    const old = await leadAged(3 * DAY_MS, DAY_MS)
    const young = await leadAged(DAY_MS, 30 * DAY_MS)
    const sweep = startRetentionSweep({
      ledger,
      retentionMs: 2 * DAY_MS,
      timers: clock.timers,
      logger: pino({ level: 'silent' }),
    })
    try {
      await clock.tick(HOUR_MS - 1)
      expect(await recordOf(old)).toBe(1)
      await clock.tick(1)
      await sweep.run()
      expect(await recordOf(old)).toBe(0)
      expect(await claimOf(old)).toBe(0)
      expect(await recordOf(young)).toBe(1)
      expect(await claimOf(young)).toBe(1)
    } finally {
      await sweep.stop()
    }
  })

  it('deletes held applications with the consent records, and withdrawal tombstones a day old', async () => {
    const held = (ageMs: number) => ({
      id: randomUUID(),
      searchUuid: randomUUID(),
      applicantKey: `applicant-${randomUUID()}`,
      firstLeadId: undefined,
      reason: 'identity' as const,
      state: 'CA',
      zip: '94105',
      ipAddress: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (Test)',
      requests: [],
      receivedAt: new Date(clock.now() - ageMs),
      answerAt: new Date(clock.now() - ageMs + 2_000),
    })
    const [old, young] = [held(3 * DAY_MS), held(DAY_MS)]
    await ledger.recordHeldApplication(old)
    await ledger.recordHeldApplication(young)
    const [stale, fresh] = [randomUUID(), randomUUID()]
    await ledger.withdrawLead(stale, new Date(clock.now() - 2 * DAY_MS), 'not confirmed in time')
    await ledger.withdrawLead(fresh, new Date(clock.now() - HOUR_MS), 'not confirmed in time')
    const purged = await ledger.purgeExpired({
      consentBefore: new Date(clock.now() - 2 * DAY_MS),
      now: new Date(clock.now()),
    })
    expect(purged.heldApplications).toBe(1)
    const ids = (await ledger.db.select().from(heldApplications)).map((h) => h.id)
    expect(ids).toContain(young.id)
    expect(ids).not.toContain(old.id)
    const tombstones = (await ledger.db.select().from(withdrawnLeads)).map((w) => w.leadId)
    expect(tombstones).toContain(fresh)
    expect(tombstones).not.toContain(stale)
  })

  it('runs in every marketplace from its start (CONSENT_RETENTION_DAYS)', async () => {
    const m = await startFakeTimeMarket({
      ledger,
      clock,
      partners: [],
      config: { consentRetentionMs: 30 * 60 * 1000 },
    })
    try {
      const res = await m.submit(makeLead())
      const { rateTable } = createdSearchSchema.parse(await res.json())
      expect(await recordOf(rateTable.leadUuid)).toBe(1)
      await clock.tick(HOUR_MS)
      await vi.waitFor(async () => expect(await recordOf(rateTable.leadUuid)).toBe(0), { interval: 20 })
    } finally {
      await m.close()
    }
  })
})
