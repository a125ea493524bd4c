/**
 * The write batch's bound on a statement's size (docs/decisions/0115-bff-at-a-proxys-cost.md): replies that
 * carry hundreds of KB are written a few at a time, with the event loop turning between their statements, while
 * ordinary writes queued together still share one statement. The database is a stand-in that records each
 * statement's parameters: what is under test is how operations are grouped, not SQL (the ledger tests run
 * the statements on PGlite and PostgreSQL).
 */
import { randomUUID } from 'node:crypto'
import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { systemTimers } from '../../src/http/timers.ts'
import type { LedgerDb } from '../../src/ledger/ledger-db.ts'
import type { ReplyRecord } from '../../src/ledger/types.ts'
import { createWriteBatch, MAX_CHARS_PER_FLUSH } from '../../src/ledger/write-batch.ts'

const dialect = new PgDialect()

function recordingDb() {
  const statements: { requestIds: string[]; turnsBefore: number }[] = []
  let turns = 0
  const tick = () => {
    turns++
    if (ticking) setImmediate(tick)
  }
  let ticking = true
  setImmediate(tick)
  const db = {
    async execute(query: SQL) {
      // The request ids of the replies this statement updates, read from its JSON parameters.
      const text = JSON.stringify(dialect.sqlToQuery(query).params)
      statements.push({
        requestIds: [...text.matchAll(/req-\d+/g)].map((m) => m[0]).filter(unique),
        turnsBefore: turns,
      })
      return { rows: [] }
    },
  } as unknown as LedgerDb
  return {
    db,
    statements,
    stop() {
      ticking = false
    },
  }
}

function unique(value: string, index: number, all: string[]): boolean {
  return all.indexOf(value) === index
}

function reply(n: number, textChars: number): ReplyRecord {
  return {
    requestId: `req-${n}`,
    leadId: randomUUID(),
    partnerId: `p${n}`,
    status: 'approved',
    latencyMs: 10,
    repliedAt: new Date('2026-03-02T10:00:00Z'),
    offers: Array.from({ length: 50 }, (_, i) => ({
      id: `o${n}-${i}`,
      position: i + 1,
      rate: 9.9,
      productType: 'installment_loan',
      recommendationScore: 0.5,
      clickUrl: `https://lender.example.com/apply?o=${i}`,
      offerDetails: 'x'.repeat(Math.floor(textChars / 50)),
    })),
  }
}

describe('the write batch', () => {
  it('writes replies of hundreds of KB in statements of bounded size, the loop turning between them', async () => {
    const { db, statements, stop } = recordingDb()
    const batch = createWriteBatch(db, { timers: systemTimers, timeoutMs: 5_000 })
    // Five partners' 240 KB replies, queued in one turn.
    await Promise.all([1, 2, 3, 4, 5].map((n) => batch.recordReply(reply(n, 240_000))))
    stop()
    expect(MAX_CHARS_PER_FLUSH).toBeLessThan(240_000)
    expect(statements.map((s) => s.requestIds)).toEqual([
      ['req-1'],
      ['req-2'],
      ['req-3'],
      ['req-4'],
      ['req-5'],
    ])
    // Between two statements the event loop ran other work (a macrotask), so a probe would have been served.
    for (let i = 1; i < statements.length; i++) {
      expect(statements[i]?.turnsBefore).toBeGreaterThan(statements[i - 1]?.turnsBefore ?? 0)
    }
  })

  it('still writes replies of a few KB queued together in one statement', async () => {
    const { db, statements, stop } = recordingDb()
    const batch = createWriteBatch(db, { timers: systemTimers, timeoutMs: 5_000 })
    await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => batch.recordReply(reply(n, 4_000))))
    stop()
    expect(statements.map((s) => s.requestIds)).toEqual([
      ['req-1', 'req-2', 'req-3', 'req-4', 'req-5', 'req-6', 'req-7', 'req-8'],
    ])
  })

  it('groups medium replies up to the bound', async () => {
    const { db, statements, stop } = recordingDb()
    const batch = createWriteBatch(db, { timers: systemTimers, timeoutMs: 5_000 })
    // Each about 42 K characters (30 KB of text, 50 offers' links and fixed columns): three fit under 128 K,
    // the fourth starts the next statement.
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => batch.recordReply(reply(n, 30_000))))
    stop()
    expect(statements.map((s) => s.requestIds)).toEqual([
      ['req-1', 'req-2', 'req-3'],
      ['req-4', 'req-5', 'req-6'],
    ])
  })
})
