import { createHash, randomUUID } from 'node:crypto'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { type Ledger, LedgerError, type ReplyRecord, type SentRequest } from '../../src/ledger/index.ts'
import { conversions } from '../../src/ledger/schema.ts'
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

/** Stands for the marketplace's keyed hash of a raw partner `lead_id` (the ledger stores what it is given). */
const hashOf = (raw: string) => createHash('sha256').update(raw).digest('base64url')

/**
 * One lead sent to `partnerId`, answered with `partnerLeadId` (stored as `stored`, its masked form) and one
 * winning offer, displayed unless `shown` is false; returns its ids.
 */
async function answeredLead(
  ledger: Ledger,
  partnerId: string,
  partnerLeadId: string,
  sentMs = 0,
  { shown = true, stored = partnerLeadId, hash = hashOf(partnerLeadId) as string | undefined } = {},
) {
  const lead = { ...newLead(), createdAt: at(sentMs) }
  const request: SentRequest = { id: randomUUID(), partnerId, tier: 'first', sentAt: at(sentMs) }
  await ledger.createLead(lead, [request])
  const offerId = randomUUID()
  const reply: ReplyRecord = {
    requestId: request.id,
    leadId: lead.id,
    partnerId,
    status: 'approved',
    partnerLeadId: stored,
    partnerLeadIdHash: hash,
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
    { kind: 'settle', winners: [{ offerId, rank: 1 }], outcomes: [], completedAt: at(sentMs + 40) },
    lead.id,
  )
  if (shown)
    await ledger.recordImpression({ offerId, leadId: lead.id, partnerId, impressedAt: at(sentMs + 50) })
  return { leadId: lead.id, offerId }
}

const conversionOf = (partnerId: string, raw: string, extra: { amountCents?: number } = {}) => ({
  partnerId,
  partnerLeadId: raw,
  partnerLeadIdHash: hashOf(raw),
  convertedAt: at(5000),
  receivedAt: at(6000),
  ...extra,
})

describe.each(LEDGER_DRIVERS)('impressions, conversions and suppression on $name', (driver) => {
  let ledger: Ledger
  openLedgerAround(driver, (opened) => {
    ledger = opened
  })

  it('records a conversion once per partner lead id, counts it in the report, and refuses unknown ids', async () => {
    const partner = `conv-${randomUUID().slice(0, 8)}`
    const { leadId } = await answeredLead(ledger, partner, 'P-100')
    const input = conversionOf(partner, 'P-100')
    const first = await ledger.recordConversion({ ...input, amountCents: 4000 })
    expect(first).toMatchObject({ kind: 'created', conversion: { leadId, amountCents: 4000 } })
    const again = await ledger.recordConversion({ ...input, amountCents: 9900, receivedAt: at(7000) })
    expect(again).toEqual({ kind: 'duplicate', conversion: first.kind === 'created' && first.conversion })
    expect(await ledger.recordConversion(conversionOf(partner, 'P-unknown'))).toEqual({
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

  it('spend per contract: per conversion, the bid of the offer each converted lead saw; per click, nothing unclicked', async () => {
    const partner = `spend-${randomUUID().slice(0, 8)}`
    // Two leads shown the partner's 5.00 offer; one converts (its posted amount is not the spend).
    await answeredLead(ledger, partner, 'P-1')
    await answeredLead(ledger, partner, 'P-2', 86_400_000)
    expect((await ledger.recordConversion(conversionOf(partner, 'P-1', { amountCents: 4000 }))).kind).toBe(
      'created',
    )
    const range = { partnerId: partner, from: at(-1000), to: at(2 * 86_400_000) }
    const perConversion = await ledger.partnerReport({ ...range, pays: 'per_conversion' })
    expect(perConversion).toMatchObject({ pays: 'per_conversion', spend: 5, conversionAmount: 40 })
    expect(perConversion.daily.map((d) => [d.date, d.spend])).toEqual([
      ['2026-04-01', 5],
      ['2026-04-02', 0],
    ])
    // Never clicked: nothing owed per click.
    expect(await ledger.partnerReport(range)).toMatchObject({ pays: 'per_click', spend: 0 })
  })

  it('sums amounts exactly in cents: 0.10 + 0.20 is 0.30, three ceilings are 3 000 000.00, never Infinity or null', async () => {
    const partner = `cents-${randomUUID().slice(0, 8)}`
    const amounts = [10, 20, 100_000_000, 100_000_000, 100_000_000]
    for (const [i, cents] of amounts.entries()) {
      await answeredLead(ledger, partner, `P-${i}`)
      expect(
        (await ledger.recordConversion(conversionOf(partner, `P-${i}`, { amountCents: cents }))).kind,
      ).toBe('created')
    }
    const report = await ledger.partnerReport({ partnerId: partner, from: at(-1000), to: at(86_400_000) })
    expect(report).toMatchObject({ conversions: 5, conversionAmount: 3_000_000.3, currency: 'USD' })
  })

  it("refuses a conversion for a lead where none of the partner's offers was displayed or clicked", async () => {
    const partner = `shown-${randomUUID().slice(0, 8)}`
    const unseen = await answeredLead(ledger, partner, 'P-unseen', 0, { shown: false })
    expect(await ledger.recordConversion(conversionOf(partner, 'P-unseen'))).toEqual({ kind: 'not-shown' })
    // A click without an impression (a blocked pixel) is enough: the visitor reached the partner.
    await ledger.recordClick({ ...unseen, partnerId: partner, clickedAt: at(100) })
    expect((await ledger.recordConversion(conversionOf(partner, 'P-unseen'))).kind).toBe('created')
  })

  it('matches by the hash of the raw id: two ids masked alike stay two leads, and the masked form is what is stored', async () => {
    const partner = `mask-${randomUUID().slice(0, 8)}`
    const masked = 'lead-[redacted]'
    const a = await answeredLead(ledger, partner, 'lead-219-09-9999', 0, { stored: masked })
    const b = await answeredLead(ledger, partner, 'lead-078-05-1120', 1000, { stored: masked })
    const first = await ledger.recordConversion(conversionOf(partner, 'lead-219-09-9999'))
    const second = await ledger.recordConversion(conversionOf(partner, 'lead-078-05-1120'))
    expect(first).toMatchObject({ kind: 'created', conversion: { leadId: a.leadId, partnerLeadId: masked } })
    expect(second).toMatchObject({ kind: 'created', conversion: { leadId: b.leadId, partnerLeadId: masked } })
    // The masked form itself matches nothing.
    expect(await ledger.recordConversion(conversionOf(partner, masked))).toEqual({ kind: 'unknown-lead' })
    const rows = JSON.stringify(await ledger.db.select().from(conversions))
    expect(rows).not.toContain('219-09-9999')
  })

  it('a request recorded before ids were hashed still matches on its id', async () => {
    const partner = `legacy-${randomUUID().slice(0, 8)}`
    const { leadId } = await answeredLead(ledger, partner, 'P-old', 0, { hash: undefined })
    expect(await ledger.recordConversion(conversionOf(partner, 'P-old'))).toMatchObject({
      kind: 'created',
      conversion: { leadId },
    })
  })

  it('concurrent postbacks for one lead record one conversion', async () => {
    const partner = `race-${randomUUID().slice(0, 8)}`
    await answeredLead(ledger, partner, 'P-race')
    const input = conversionOf(partner, 'P-race')
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
