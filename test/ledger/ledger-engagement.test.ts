import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { type Ledger, LedgerError, type ReplyRecord, type SentRequest } from '../../src/ledger/index.ts'
import { LEDGER_DRIVERS, openLedgerAround } from './support/ledger-drivers.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const T0 = new Date('2026-04-01T10:00:00.000Z')
const at = (ms: number) => new Date(T0.getTime() + ms)

function newLead() {
  return {
    id: randomUUID(),
    searchUuid: randomUUID(),
    state: 'CA',
    zip: '94105',
    createdAt: T0,
    deadlineAt: at(12_000),
  }
}

/** One lead sent to `partnerId`, answered with `partnerLeadId` and one winning offer; returns its ids. */
async function answeredLead(ledger: Ledger, partnerId: string, partnerLeadId: string, sentMs = 0) {
  const lead = { ...newLead(), createdAt: at(sentMs) }
  const request: SentRequest = { id: randomUUID(), partnerId, tier: 'first', sentAt: at(sentMs) }
  await ledger.createLead(lead, [request])
  const offerId = randomUUID()
  const reply: ReplyRecord = {
    requestId: request.id,
    leadId: lead.id,
    partnerId,
    status: 'approved',
    partnerLeadId,
    latencyMs: 30,
    repliedAt: at(sentMs + 30),
    offers: [
      {
        id: offerId,
        position: 0,
        rate: 5,
        productType: 'personal_loan',
        recommendationScore: 5,
        clickUrl: 'https://partner.example/c',
      },
    ],
  }
  await ledger.closeTier(
    [reply],
    { kind: 'settle', winners: [{ offerId, rank: 1 }], completedAt: at(sentMs + 40) },
    lead.id,
  )
  return { leadId: lead.id, offerId }
}

describe.each(LEDGER_DRIVERS)('impressions, conversions and suppression on $name', (driver) => {
  let ledger: Ledger
  openLedgerAround(driver, (opened) => {
    ledger = opened
  })

  it('records a conversion once per partner lead id, counts it in the report, and refuses unknown ids', async () => {
    const partner = `conv-${randomUUID().slice(0, 8)}`
    const { leadId } = await answeredLead(ledger, partner, 'P-100')
    const input = { partnerId: partner, partnerLeadId: 'P-100', convertedAt: at(5000), receivedAt: at(6000) }
    const first = await ledger.recordConversion({ ...input, amount: 40 })
    expect(first).toMatchObject({ kind: 'created', conversion: { leadId, amount: 40 } })
    const again = await ledger.recordConversion({ ...input, amount: 99, receivedAt: at(7000) })
    expect(again).toEqual({ kind: 'duplicate', conversion: first.kind === 'created' && first.conversion })
    expect(await ledger.recordConversion({ ...input, partnerLeadId: 'P-unknown' })).toEqual({
      kind: 'unknown-lead',
    })
    // Another partner cannot convert this partner's lead, even knowing its id.
    expect(await ledger.recordConversion({ ...input, partnerId: 'someone-else' })).toEqual({
      kind: 'unknown-lead',
    })
    const report = await ledger.partnerReport({ partnerId: partner, from: at(-1000), to: at(86_400_000) })
    expect(report).toMatchObject({ conversions: 1, conversionAmount: 40 })
    expect(report.daily[0]?.conversions).toBe(1)
    expect(report.leads[0]?.converted).toBe(true)
  })

  it('concurrent postbacks for one lead record one conversion', async () => {
    const partner = `race-${randomUUID().slice(0, 8)}`
    await answeredLead(ledger, partner, 'P-race')
    const input = { partnerId: partner, partnerLeadId: 'P-race', convertedAt: at(1), receivedAt: at(2) }
    const results = await Promise.all([1, 2, 3, 4].map(() => ledger.recordConversion(input)))
    expect(results.filter((r) => r.kind === 'created')).toHaveLength(1)
    const report = await ledger.partnerReport({ partnerId: partner, from: at(-1000), to: at(86_400_000) })
    expect(report.conversions).toBe(1)
  })

  it('lists the leads of a period that did not click the partner, by the partner lead id', async () => {
    const partner = `supp-${randomUUID().slice(0, 8)}`
    const clicked = await answeredLead(ledger, partner, 'P-clicked', 1000)
    const notClicked = await answeredLead(ledger, partner, 'P-idle', 2000)
    const outside = await answeredLead(ledger, partner, 'P-later', 3 * 86_400_000)
    await ledger.recordClick({ ...clicked, partnerId: partner, clickedAt: at(5000) })
    const list = await ledger.suppressionList({ partnerId: partner, from: at(0), to: at(86_400_000) })
    expect(list.leads).toEqual([
      { partnerLeadId: 'P-idle', leadId: notClicked.leadId, sentAt: at(2000).toISOString() },
    ])
    expect(list.truncated).toBe(false)
    const cut = await ledger.suppressionList({
      partnerId: partner,
      from: at(0),
      to: at(4 * 86_400_000),
      limit: 1,
    })
    expect(cut.leads.map((l) => l.leadId)).toEqual([notClicked.leadId])
    expect(cut.truncated).toBe(true)
    expect(outside.leadId).not.toBe(notClicked.leadId)
  })

  it('a failed write rejects with a LedgerError that carries no query parameter, and logs none', async () => {
    const ssn = '219-09-9999'
    const clickUrl = 'https://partner.example/click?name=Quentina'
    const failing = ledger.recordReply({
      // Not a uuid: the statement fails in the database, after drizzle has bound every value.
      requestId: 'not-a-uuid',
      leadId: randomUUID(),
      partnerId: 'leaky',
      status: 'approved',
      partnerLeadId: `lead-${ssn}`,
      reason: 'Quentina Probeworth',
      latencyMs: 1,
      repliedAt: at(0),
      offers: [
        {
          id: randomUUID(),
          position: 0,
          rate: 1,
          productType: 'x',
          recommendationScore: 1,
          clickUrl,
        },
      ],
    })
    const error = await failing.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(LedgerError)
    expect((error as LedgerError).message).toMatch(/^ledger \w+ failed: \w{5}/)
    const lines: string[] = []
    const logger = pino({}, { write: (line: string) => lines.push(line) })
    logger.error({ err: error }, 'ledger write failed')
    const logged = lines.join('\n')
    for (const secret of [ssn, '219099999', 'Quentina', 'Probeworth', 'partner.example', 'not-a-uuid'])
      expect(logged).not.toContain(secret)
    // What failed stays readable: the operation and the driver's code.
    expect(logged).toContain((error as LedgerError).code)
  })
})
