import { randomUUID } from 'node:crypto'
import { asc, eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import type { CreateLeadResult, Ledger, ReplyRecord, SentRequest } from '../../src/ledger/index.ts'
import { LedgerError } from '../../src/ledger/ledger-error.ts'
import { recordset } from '../../src/ledger/recordset.ts'
import {
  applicantClaims,
  consentRecords,
  consentTexts,
  leadHandoffs,
  leads,
  offers,
  partnerRequests,
} from '../../src/ledger/schema.ts'
import { LEDGER_DRIVERS, openLedgerAround, PGLITE_THREAD_DRIVER } from './support/ledger-drivers.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const T0 = new Date('2026-03-02T10:00:00.000Z')
const at = (ms: number) => new Date(T0.getTime() + ms)

function newLead(key?: string) {
  return {
    id: randomUUID(),
    searchUuid: randomUUID(),
    state: 'CA',
    zip: '94105',
    idempotencyKey: key,
    bodyHash: key ? `hash-${key}` : undefined,
    createdAt: T0,
    deadlineAt: at(12_000),
  }
}

/** The lead a create answered with: its own, or the one holding its idempotency key. */
function leadOf(result: CreateLeadResult) {
  if (!('lead' in result)) throw new Error('the create was answered as a duplicate applicant')
  return result.lead
}

function sent(partnerId: string, tier: 'first' | 'second' = 'first', ms = 0): SentRequest {
  return { id: randomUUID(), partnerId, tier, sentAt: at(ms) }
}

function approved(leadId: string, request: SentRequest, rates: Array<[number, string]>): ReplyRecord {
  return {
    requestId: request.id,
    leadId,
    partnerId: request.partnerId,
    status: 'approved',
    partnerLeadId: `p-${request.partnerId}`,
    latencyMs: 42,
    repliedAt: at(42),
    offers: rates.map(([rate, productType], position) => ({
      id: randomUUID(),
      position,
      rate,
      productType,
      recommendationScore: rate,
      clickUrl: `https://partner.example/${request.partnerId}/${position}`,
    })),
  }
}

describe.each([...LEDGER_DRIVERS, PGLITE_THREAD_DRIVER])('ledger on $name', (driver) => {
  let ledger: Ledger
  openLedgerAround(driver, (opened) => {
    ledger = opened
  })

  it('lists every request as pending until its reply, then settles atomically with the winners', async () => {
    const lead = newLead()
    const a = sent('alpha')
    const b = sent('bravo')
    const created = await ledger.createLead(lead, [a, b])
    expect(created.created).toBe(true)

    let search = await ledger.getSearch(lead.searchUuid)
    expect(search?.pending.map((p) => p.partnerId)).toEqual(['alpha', 'bravo'])

    const replyA = approved(lead.id, a, [[10, 'installment_loan']])
    await ledger.recordReply(replyA)
    search = await ledger.getSearch(lead.searchUuid)
    expect(search?.pending.map((p) => p.partnerId)).toEqual(['bravo'])
    expect(search?.displayed).toEqual([])

    const replyB: ReplyRecord = {
      requestId: b.id,
      leadId: lead.id,
      partnerId: 'bravo',
      status: 'timeout',
      reason: 'no reply within 12000 ms',
      latencyMs: 12_000,
      repliedAt: at(12_000),
      offers: [],
    }
    const winner = replyA.offers[0]?.id ?? ''
    await ledger.closeTier(
      [replyB],
      { kind: 'settle', winners: [{ offerId: winner, rank: 1 }], outcomes: [], completedAt: at(12_001) },
      lead.id,
    )
    search = await ledger.getSearch(lead.searchUuid)
    expect(search?.lead.status).toBe('complete')
    expect(search?.pending).toEqual([])
    expect(search?.displayed.map((o) => [o.id, o.rank, o.rate, o.clickUrl])).toEqual([
      [winner, 1, 10, 'https://partner.example/alpha/0'],
    ])
  })

  it('a poll that reads while the lead settles sees it pending, or settled with its winner: never neither', async () => {
    // Read in two statements, a poll could see the lead pending, then its requests answered: no partner
    // pending and no offer, so the widget stopped polling on an empty table (CI, takeover-replicas).
    const torn: string[] = []
    for (let round = 0; round < 20; round++) {
      const lead = newLead()
      const request = sent('alpha')
      await ledger.createLead(lead, [request])
      const reply = approved(lead.id, request, [[10, 'installment_loan']])
      const winner = reply.offers[0]?.id ?? ''
      const settle = {
        kind: 'settle' as const,
        winners: [{ offerId: winner, rank: 1 }],
        outcomes: [],
        completedAt: at(50),
      }
      // Both at once, in this order: the poll's first statement goes before the settle's transaction.
      const [search] = await Promise.all([
        ledger.getSearch(lead.searchUuid),
        ledger.closeTier([reply], settle, lead.id),
      ])
      const pending = search?.pending.length ?? 0
      const shown = search?.displayed.length ?? 0
      if (pending === 0 && shown === 0)
        torn.push(`round ${round}: status ${search?.lead.status}, nothing pending, nothing shown`)
    }
    expect(torn).toEqual([])
  })

  it('moves to the next tier in the same transaction as the last reply, so pending is never empty between tiers', async () => {
    const lead = newLead()
    const first = sent('first-only')
    await ledger.createLead(lead, [first])
    const second = sent('second-only', 'second', 100)
    await ledger.closeTier(
      [
        {
          requestId: first.id,
          leadId: lead.id,
          partnerId: 'first-only',
          status: 'rejected',
          reason: 'no',
          latencyMs: 5,
          repliedAt: at(5),
          offers: [],
        },
      ],
      { kind: 'next-tier', requests: [second] },
      lead.id,
    )
    const search = await ledger.getSearch(lead.searchUuid)
    expect(search?.lead.status).toBe('pending')
    expect(search?.pending).toEqual([{ partnerId: 'second-only', tier: 'second' }])
  })

  it('a lead, its replies and its settle queued in one turn share one write and all land', async () => {
    // A partner can answer before its lead's write has started (fan-out begins before the lead is
    // written), so one flush may create a request and record its reply: neither may be lost.
    const lead = newLead()
    const a = sent('same-batch-a')
    const b = sent('same-batch-b')
    const replyA = approved(lead.id, a, [[7, 'installment_loan']])
    const replyB = approved(lead.id, b, [[9, 'installment_loan']])
    const winner = replyB.offers[0]?.id ?? ''
    const [created] = await Promise.all([
      ledger.createLead(lead, [a, b]),
      ledger.recordReply(replyA),
      ledger.closeTier(
        [replyB],
        { kind: 'settle', winners: [{ offerId: winner, rank: 1 }], outcomes: [], completedAt: at(60) },
        lead.id,
      ),
    ])
    expect(created.created).toBe(true)
    const search = await ledger.getSearch(lead.searchUuid)
    expect(search?.lead.status).toBe('complete')
    expect(search?.lead.completedAt).toEqual(at(60))
    expect(search?.displayed.map((o) => [o.id, o.rank])).toEqual([[winner, 1]])
    const rows = await ledger.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.leadId, lead.id))
      .orderBy(asc(partnerRequests.partnerId))
    expect(rows.map((r) => [r.partnerId, r.status, r.latencyMs, r.offerCount, r.partnerLeadId])).toEqual([
      ['same-batch-a', 'approved', 42, 1, 'p-same-batch-a'],
      ['same-batch-b', 'approved', 42, 1, 'p-same-batch-b'],
    ])
    const stored = await ledger.db.select().from(offers).where(eq(offers.leadId, lead.id))
    expect(stored.map((o) => [o.partnerId, o.displayed]).sort()).toEqual([
      ['same-batch-a', false],
      ['same-batch-b', true],
    ])
  })

  it('a reply written after its lead, in a later flush, updates the pending request', async () => {
    const lead = newLead()
    const a = sent('later-a')
    const b = sent('later-b')
    await ledger.createLead(lead, [a, b])
    await ledger.recordReply({ ...approved(lead.id, a, []), status: 'rejected', reason: 'not in our box' })
    const rows = await ledger.db.select().from(partnerRequests).where(eq(partnerRequests.leadId, lead.id))
    const byPartner = Object.fromEntries(rows.map((r) => [r.partnerId, r]))
    expect(byPartner['later-a']).toMatchObject({
      status: 'rejected',
      reason: 'not in our box',
      latencyMs: 42,
    })
    expect(byPartner['later-b']).toMatchObject({ status: 'pending', latencyMs: null, repliedAt: null })
  })

  it('updates find their rows by index however large the ledger grows, not by scanning a table', async () => {
    // jsonb_to_recordset has no row estimate (the planner assumes 100 rows), so without the exact count a
    // one-lead settle was planned as a hash join over a sequential scan of every lead.
    const many = Array.from({ length: 3_000 }, () => ({
      id: randomUUID(),
      search_uuid: randomUUID(),
      created_at: T0.toISOString(),
    }))
    await ledger.db.execute(sql`
      insert into ${leads} (id, search_uuid, state, zip, status, created_at, deadline_at)
      select id, search_uuid, 'CA', '94105', 'pending', created_at, created_at
      from ${recordset(many, 'id uuid, search_uuid uuid, created_at timestamptz')}`)
    await ledger.db.execute(sql`analyze ${leads}`)
    const one = [{ id: many[0]?.id, completed_at: at(1).toISOString() }]
    const plan = await ledger.db.execute(sql`
      explain update ${leads} as l set completed_at = v.completed_at
      from ${recordset(one, 'id uuid, completed_at timestamptz')}
      where l.id = v.id`)
    const text = (plan as unknown as { rows: Array<Record<string, string>> }).rows
      .map((row) => Object.values(row).join(' '))
      .join('\n')
    expect(text).toMatch(/Index Scan using marketplace_leads_pkey/)
    expect(text).not.toMatch(/Seq Scan on marketplace_leads/)
  })

  it('hands back the holder of an idempotency key and writes nothing for the second create', async () => {
    const key = `key-${randomUUID()}`
    const one = newLead(key)
    const two = newLead(key)
    const [r1, r2] = await Promise.all([
      ledger.createLead(one, [sent('alpha')]),
      ledger.createLead(two, [sent('alpha')]),
    ])
    const createdCount = [r1, r2].filter((r) => r.created).length
    expect(createdCount).toBe(1)
    expect(leadOf(r1).id).toBe(leadOf(r2).id)
    expect(leadOf(r1).bodyHash).toBe(`hash-${key}`)
    const loser = r1.created ? two : one
    expect(await ledger.getSearch(loser.searchUuid)).toBeUndefined()
  })

  it('a write the database refuses fails only its own caller, naming no data; a repeated write changes nothing', async () => {
    const lead = newLead()
    const a = sent('alpha')
    const b = sent('bravo')
    const c = sent('charlie')
    await ledger.createLead(lead, [a, b, c])
    const good = approved(lead.id, a, [[12, 'installment_loan']])
    // A null product type breaks a NOT NULL column: the database refuses the statement holding it.
    const bad = approved(lead.id, b, [[99, 'installment_loan']])
    Object.assign(bad.offers[0] as object, {
      productType: null,
      clickUrl: 'https://partner.example/987-65-4329',
    })
    const [goodWrite, badWrite] = await Promise.allSettled([
      ledger.recordReply(good),
      ledger.recordReply(bad),
    ])
    expect(goodWrite.status).toBe('fulfilled')
    expect(badWrite.status).toBe('rejected')
    const error = (badWrite as PromiseRejectedResult).reason
    expect(error).toBeInstanceOf(LedgerError)
    expect(error).toMatchObject({ code: '23502', transient: false })
    expect(String(error.message)).not.toMatch(/987-65-4329|partner\.example/)
    // A retry of a reply that did commit (its first attempt timed out late) adds no row and keeps the reply.
    await ledger.recordReply({ ...good, status: 'rejected', offers: good.offers })
    const rows = await ledger.db.select().from(offers).where(eq(offers.leadId, lead.id))
    expect(rows.map((o) => o.rate)).toEqual([12])
    const [request] = await ledger.db.select().from(partnerRequests).where(eq(partnerRequests.id, a.id))
    expect(request?.status).toBe('approved')
  })

  it('a lead with no partner to ask is complete at once', async () => {
    const lead = newLead()
    const result = await ledger.createLead(lead, [])
    expect(leadOf(result).status).toBe('complete')
  })

  it('counts a click once per offer', async () => {
    const lead = newLead()
    const a = sent('clicky')
    await ledger.createLead(lead, [a])
    const reply = approved(lead.id, a, [[3, 'debt_relief']])
    const offerId = reply.offers[0]?.id ?? ''
    await ledger.closeTier(
      [reply],
      { kind: 'settle', winners: [{ offerId, rank: 1 }], outcomes: [], completedAt: at(50) },
      lead.id,
    )
    const click = { offerId, leadId: lead.id, partnerId: 'clicky', clickedAt: at(60) }
    expect(await ledger.recordClick(click)).toBe(true)
    expect(await ledger.recordClick({ ...click, clickedAt: at(70) })).toBe(false)
    expect((await ledger.findOffer(offerId))?.clickUrl).toBe('https://partner.example/clicky/0')
  })

  it("keeps an offer's loan terms with it as figures, and null for an offer without them", async () => {
    const lead = newLead()
    const a = sent('terms')
    await ledger.createLead(lead, [a])
    const reply = approved(lead.id, a, [
      [6, 'installment_loan'],
      [5, 'debt_relief'],
    ])
    const terms = {
      apr_percent: { min: 5.99, max: 5.99 },
      amount_usd: { min: 1_000.5, max: 50_000 },
      term_months: { min: 1, max: 600 },
      monthly_payment_usd: 0.1 + 0.2,
    }
    const [withTerms, without] = reply.offers
    if (withTerms === undefined || without === undefined) throw new Error('two offers expected')
    withTerms.loanTerms = terms
    await ledger.closeTier(
      [reply],
      {
        kind: 'settle',
        winners: [
          { offerId: withTerms.id, rank: 1 },
          { offerId: without.id, rank: 2 },
        ],
        outcomes: [],
        completedAt: at(50),
      },
      lead.id,
    )
    // Numbers come back as the same doubles (jsonb keeps 0.30000000000000004), nested as they went in.
    expect((await ledger.findOffer(withTerms.id))?.loanTerms).toEqual(terms)
    expect((await ledger.findOffer(without.id))?.loanTerms).toBeNull()
    const search = await ledger.getSearch(lead.searchUuid)
    expect(search?.displayed.map((o) => o.loanTerms)).toEqual([terms, null])
  })

  it('reports requests, responses with offers, offers returned and displayed, unique clicks, average bids and win/loss', async () => {
    const partner = `report-${randomUUID().slice(0, 8)}`
    // Lead 1: two offers, one wins and is clicked twice. Lead 2: rejected. Lead 3: one offer that loses.
    const l1 = newLead()
    const r1 = sent(partner)
    await ledger.createLead(l1, [r1])
    const reply1 = approved(l1.id, r1, [
      [10, 'installment_loan'],
      [4, 'debt_relief'],
    ])
    const won = reply1.offers[0]?.id ?? ''
    await ledger.closeTier(
      [reply1],
      { kind: 'settle', winners: [{ offerId: won, rank: 1 }], outcomes: [], completedAt: at(100) },
      l1.id,
    )
    // The widget rendered the winner (twice: one unique impression), then it was clicked twice.
    const impression = { offerId: won, leadId: l1.id, partnerId: partner, impressedAt: at(150) }
    expect(await ledger.recordImpression(impression)).toBe(true)
    expect(await ledger.recordImpression({ ...impression, impressedAt: at(160) })).toBe(false)
    await ledger.recordClick({ offerId: won, leadId: l1.id, partnerId: partner, clickedAt: at(200) })
    await ledger.recordClick({ offerId: won, leadId: l1.id, partnerId: partner, clickedAt: at(300) })

    const l2 = newLead()
    const r2 = sent(partner, 'first', 86_400_000)
    await ledger.createLead(l2, [r2])
    await ledger.closeTier(
      [
        {
          requestId: r2.id,
          leadId: l2.id,
          partnerId: partner,
          status: 'rejected',
          reason: 'thin file',
          latencyMs: 9,
          repliedAt: at(86_400_009),
          offers: [],
        },
      ],
      { kind: 'settle', winners: [], outcomes: [], completedAt: at(86_400_010) },
      l2.id,
    )

    // Lead 3: one offer that wins but is never rendered (the visitor left): won, not displayed.
    const l3 = newLead()
    const r3 = sent(partner, 'first', 86_400_000 + 1000)
    await ledger.createLead(l3, [r3])
    const reply3 = approved(l3.id, r3, [[6, 'installment_loan']])
    await ledger.closeTier(
      [reply3],
      {
        kind: 'settle',
        winners: [{ offerId: reply3.offers[0]?.id ?? '', rank: 1 }],
        outcomes: [],
        completedAt: at(86_402_000),
      },
      l3.id,
    )

    const report = await ledger.partnerReport({ partnerId: partner, from: at(-1000), to: at(3 * 86_400_000) })
    expect(report).toMatchObject({
      requests: 3,
      responsesWithOffers: 2,
      offersReturned: 3,
      offersWon: 2,
      offersDisplayed: 1,
      uniqueClicks: 1,
      conversions: 0,
      winRate: 0.6667,
      clickThroughRate: 1,
      causes: [{ status: 'rejected', reason: 'thin file', httpStatus: null, count: 1, averageLatencyMs: 9 }],
      averageBidByProductType: [
        { productType: 'debt_relief', offers: 1, averageBid: 4 },
        { productType: 'installment_loan', offers: 2, averageBid: 8 },
      ],
      leadsTruncated: false,
    })
    expect(report.daily).toEqual([
      {
        date: '2026-03-02',
        requests: 1,
        responsesWithOffers: 1,
        offersDisplayed: 1,
        uniqueClicks: 1,
        conversions: 0,
        // Per click (the default contract): the clicked offer's bid, once however many clicks.
        spend: 10,
      },
      {
        date: '2026-03-03',
        requests: 2,
        responsesWithOffers: 1,
        offersDisplayed: 0,
        uniqueClicks: 0,
        conversions: 0,
        spend: 0,
      },
    ])
    expect(report).toMatchObject({ pays: 'per_click', spend: 10 })
    // Leads written without their bands (as before migration 0007) are counted as not recorded.
    expect(report.breakdowns.amountBand).toEqual([
      {
        value: 'not_recorded',
        requests: 3,
        responsesWithOffers: 2,
        offers: 3,
        offersDisplayed: 1,
        uniqueClicks: 1,
        averageBid: 6.6667,
      },
    ])
    expect(report.replies).toEqual([
      { status: 'approved', count: 2, averageLatencyMs: 42, p95LatencyMs: 42, maxLatencyMs: 42 },
      { status: 'rejected', count: 1, averageLatencyMs: 9, p95LatencyMs: 9, maxLatencyMs: 9 },
    ])
    expect(
      report.leads.map((l) => [
        l.leadId,
        l.status,
        l.reason,
        l.offers.map((o) => [o.rate, o.result, o.displayed, o.clicked]),
      ]),
    ).toEqual([
      [l3.id, 'approved', null, [[6, 'won', false, false]]],
      [l2.id, 'rejected', 'thin file', []],
      [
        l1.id,
        'approved',
        null,
        [
          [10, 'won', true, true],
          [4, 'lost', false, false],
        ],
      ],
    ])

    const narrow = await ledger.partnerReport({
      partnerId: partner,
      from: at(86_000_000),
      to: at(3 * 86_400_000),
      leadLimit: 1,
    })
    expect(narrow.requests).toBe(2)
    expect(narrow.leads).toHaveLength(1)
    expect(narrow.leadsTruncated).toBe(true)
  })

  // A statement that disagreed with the schema (a missing, extra or misnamed column) fails here.
  it('fills every column of the lead, its requests and offers as the schema names them', async () => {
    const lead = {
      id: randomUUID(),
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      creditBand: 'good',
      loanPurpose: 'debt_consolidation',
      amountBand: '5k_10k',
      placement: 'home-hero',
      idempotencyKey: `key-${randomUUID()}`,
      bodyHash: 'hash',
      createdAt: T0,
      deadlineAt: new Date(T0.getTime() + 12_000),
    }
    const lease = { owner: 'replica-a', leaseUntil: new Date(T0.getTime() + 3_000), sealed: 'v1.sealed' }
    const applicant = {
      key: `applicant-${randomUUID()}`,
      expiresAt: new Date(T0.getTime() + 30 * 86_400_000),
      contactKey: `contact-${randomUUID()}`,
      ssn: { key: `ssn-${randomUUID()}`, cap: 2 },
    }
    const fcra = {
      id: `f-${randomUUID()}`.slice(0, 16),
      kind: 'fcra' as const,
      version: 'v1',
      text: 'FCRA text',
    }
    const tcpa = {
      id: `t-${randomUUID()}`.slice(0, 16),
      kind: 'tcpa' as const,
      version: 'v1',
      text: 'TCPA text',
    }
    const consent = {
      fcra,
      tcpa,
      tcpaChecked: false,
      pageUrl: 'https://publisher.example/loans',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (Test)',
      widgetVersion: '0.1.0',
      trustedFormCertUrl: `https://cert.trustedform.com/${'a'.repeat(40)}`,
      leadiDToken: randomUUID(),
    }
    const first: SentRequest = { id: randomUUID(), partnerId: 'alpha', tier: 'first', sentAt: T0 }
    const second: SentRequest = { id: randomUUID(), partnerId: 'bravo', tier: 'second', sentAt: T0 }
    await ledger.createLead({ ...lead, ...lease, applicant, consent }, [first])
    // The lead is held by its replica, and its sealed copy waits beside it for a takeover.
    expect(await ledger.db.select().from(leads).where(eq(leads.id, lead.id))).toEqual([
      {
        ...lead,
        status: 'pending',
        completedAt: null,
        failureReason: null,
        owner: 'replica-a',
        leaseUntil: lease.leaseUntil,
        applicantKey: applicant.key,
      },
    ])
    // Its applicant's claim, the texts once each, and the consent record, in the same statement.
    expect(await ledger.db.select().from(applicantClaims).where(eq(applicantClaims.leadId, lead.id))).toEqual(
      [
        {
          applicantKey: applicant.key,
          leadId: lead.id,
          claimedAt: T0,
          expiresAt: applicant.expiresAt,
          contactKey: applicant.contactKey,
          ssnKey: applicant.ssn.key,
        },
      ],
    )
    expect(
      await ledger.db
        .select()
        .from(consentTexts)
        .where(inArray(consentTexts.id, [fcra.id, tcpa.id]))
        .orderBy(consentTexts.kind),
    ).toEqual([
      { ...fcra, firstStoredAt: T0 },
      { ...tcpa, firstStoredAt: T0 },
    ])
    expect(await ledger.db.select().from(consentRecords).where(eq(consentRecords.leadId, lead.id))).toEqual([
      {
        leadId: lead.id,
        recordedAt: T0,
        fcraTextId: fcra.id,
        fcraChecked: true,
        tcpaTextId: tcpa.id,
        tcpaChecked: false,
        pageUrl: consent.pageUrl,
        ipAddress: consent.ipAddress,
        userAgent: consent.userAgent,
        widgetVersion: consent.widgetVersion,
        trustedFormCertUrl: consent.trustedFormCertUrl,
        leadiDToken: consent.leadiDToken,
      },
    ])
    expect(await ledger.db.select().from(leadHandoffs).where(eq(leadHandoffs.leadId, lead.id))).toEqual([
      { leadId: lead.id, sealed: 'v1.sealed' },
    ])
    const repliedAt = new Date(T0.getTime() + 40)
    const reply: ReplyRecord = {
      requestId: first.id,
      leadId: lead.id,
      partnerId: 'alpha',
      status: 'approved',
      httpStatus: 200,
      partnerLeadId: 'p-1',
      partnerLeadIdHash: 'hash-of-p-1',
      latencyMs: 40.4,
      repliedAt,
      offersDropped: 1,
      offers: [
        {
          id: randomUUID(),
          position: 0,
          rate: 9.5,
          productType: 'personal_loan',
          recommendationScore: 0.75,
          clickUrl: 'https://alpha.example/click',
          name: 'Alpha',
          displayName: 'Alpha Loans',
          offerDetails: 'Fixed rate',
          logoSrc: 'https://alpha.example/logo.png',
          loanTerms: {
            apr_percent: { min: 8.99, max: 24.99 },
            amount_usd: { min: 7_500, max: 12_500 },
            term_months: { min: 24, max: 60 },
            monthly_payment_usd: 207.54,
            origination_fee_percent: { min: 0, max: 4.75 },
          },
        },
      ],
    }
    await ledger.recordReply(reply)
    await ledger.closeTier([], { kind: 'next-tier', requests: [second] }, lead.id)
    const completedAt = new Date(T0.getTime() + 50)
    const offerId = reply.offers[0]?.id ?? ''
    // The offer arrived in an earlier write: the settle updates it with its outcome (migration 0007).
    await ledger.closeTier(
      [],
      {
        kind: 'settle',
        winners: [{ offerId, rank: 1 }],
        outcomes: [{ offerId, outcome: 'won', bidRank: 1, gapCents: 0 }],
        completedAt,
      },
      lead.id,
    )

    const db = ledger.db
    // Settled: no owner, no lease, and the sealed copy deleted in the same statement.
    expect(await db.select().from(leads).where(eq(leads.id, lead.id))).toEqual([
      {
        ...lead,
        status: 'complete',
        completedAt,
        failureReason: null,
        owner: null,
        leaseUntil: null,
        applicantKey: applicant.key,
      },
    ])
    expect(await db.select().from(leadHandoffs).where(eq(leadHandoffs.leadId, lead.id))).toEqual([])
    const requests = await db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.leadId, lead.id))
      .orderBy(partnerRequests.partnerId)
    expect(requests).toEqual([
      {
        ...first,
        leadId: lead.id,
        status: 'approved',
        reason: null,
        httpStatus: 200,
        partnerLeadId: 'p-1',
        partnerLeadIdHash: 'hash-of-p-1',
        latencyMs: 40,
        offerCount: 1,
        offersDropped: 1,
        repliedAt,
      },
      {
        ...second,
        leadId: lead.id,
        status: 'pending',
        reason: null,
        httpStatus: null,
        partnerLeadId: null,
        partnerLeadIdHash: null,
        latencyMs: null,
        offerCount: 0,
        offersDropped: 0,
        repliedAt: null,
      },
    ])
    expect(await db.select().from(offers).where(eq(offers.leadId, lead.id))).toEqual([
      {
        ...reply.offers[0],
        leadId: lead.id,
        requestId: first.id,
        partnerId: 'alpha',
        displayed: true,
        rank: 1,
        outcome: 'won',
        bidRank: 1,
        gapCents: 0,
        createdAt: repliedAt,
      },
    ])
  })
})
