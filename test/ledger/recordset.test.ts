/**
 * @module The batch statements' column lists come from the drizzle schema: the helper renders names and
 * types from the table, and what the batch writes reads back column for column through the schema on both
 * databases, so a statement that disagreed with the schema (a missing, extra or misnamed column) fails here.
 */
import { randomUUID } from 'node:crypto'
import { eq, getTableColumns } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Ledger, ReplyRecord, SentRequest } from '../../src/ledger/index.ts'
import { allColumns, columnList } from '../../src/ledger/recordset.ts'
import { leads, offers, partnerRequests } from '../../src/ledger/schema.ts'
import { LEDGER_DRIVERS } from './ledger-drivers.ts'

const dialect = new PgDialect()

describe('columnList', () => {
  it('names the columns by their SQL names and types, in the order asked', () => {
    const list = columnList(leads, ['createdAt', 'id'])
    expect(list.definition).toBe('"created_at" timestamp with time zone, "id" uuid')
    expect(dialect.sqlToQuery(list.names).sql).toBe('"created_at", "id"')
    expect(list.row({ id: 'x', createdAt: '2026-03-02T10:00:00.000Z' })).toEqual({
      created_at: '2026-03-02T10:00:00.000Z',
      id: 'x',
    })
  })

  it('updates every column but the key from the recordset', () => {
    const list = columnList(offers, ['id', 'rank', 'recommendationScore'])
    expect(dialect.sqlToQuery(list.assignments).sql).toBe(
      '"rank" = v."rank", "recommendation_score" = v."recommendation_score"',
    )
    expect(list.definition).toBe('"id" uuid, "rank" integer, "recommendation_score" double precision')
  })

  it('lists every column of a table for a whole-row insert, and refuses a field the table lacks', () => {
    for (const table of [leads, partnerRequests, offers]) {
      const names = Object.values(getTableColumns(table)).map((c) => `"${c.name}"`)
      expect(dialect.sqlToQuery(allColumns(table).names).sql).toBe(names.join(', '))
    }
    expect(() => columnList(leads, ['nope' as 'id'])).toThrow(/no column "nope"/)
  })
})

const T0 = new Date('2026-03-02T10:00:00.000Z')

describe.each(LEDGER_DRIVERS)('what the batch writes, read back through the schema, on $name', (driver) => {
  let ledger: Ledger
  beforeAll(async () => {
    ledger = await driver.open()
  }, 30_000)
  afterAll(async () => {
    await ledger.close()
  })

  it('fills every column of the lead, its requests and offers as the schema names them', async () => {
    const lead = {
      id: randomUUID(),
      searchUuid: randomUUID(),
      state: 'CA',
      zip: '94105',
      idempotencyKey: `key-${randomUUID()}`,
      bodyHash: 'hash',
      createdAt: T0,
      deadlineAt: new Date(T0.getTime() + 12_000),
    }
    const first: SentRequest = { id: randomUUID(), partnerId: 'alpha', tier: 'first', sentAt: T0 }
    const second: SentRequest = { id: randomUUID(), partnerId: 'bravo', tier: 'second', sentAt: T0 }
    await ledger.createLead(lead, [first])
    const repliedAt = new Date(T0.getTime() + 40)
    const reply: ReplyRecord = {
      requestId: first.id,
      leadId: lead.id,
      partnerId: 'alpha',
      status: 'approved',
      httpStatus: 200,
      partnerLeadId: 'p-1',
      latencyMs: 40.4,
      repliedAt,
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
        },
      ],
    }
    await ledger.recordReply(reply)
    await ledger.closeTier([], { kind: 'next-tier', requests: [second] }, lead.id)
    const completedAt = new Date(T0.getTime() + 50)
    const offerId = reply.offers[0]?.id ?? ''
    await ledger.closeTier([], { kind: 'settle', winners: [{ offerId, rank: 1 }], completedAt }, lead.id)

    const db = ledger.db
    expect(await db.select().from(leads).where(eq(leads.id, lead.id))).toEqual([
      { ...lead, status: 'complete', completedAt, failureReason: null },
    ])
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
        latencyMs: 40,
        offerCount: 1,
        repliedAt,
      },
      {
        ...second,
        leadId: lead.id,
        status: 'pending',
        reason: null,
        httpStatus: null,
        partnerLeadId: null,
        latencyMs: null,
        offerCount: 0,
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
        createdAt: repliedAt,
      },
    ])
  })
})
