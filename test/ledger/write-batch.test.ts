/**
 * The write batch's bound on a statement's size (docs/decisions/0115-bff-at-a-proxys-cost.md): replies that
 * carry hundreds of KB are written a few at a time, with the event loop turning between their statements, while
 * ordinary writes queued together still share one statement. The database is a stand-in that records each
 * statement's parameters: what is under test is how operations are grouped, not SQL (the ledger tests run
 * the statements on PGlite and PostgreSQL). And insurance search events (docs/placements.md): a queue of their
 * own, bounded, refusing past the bound, whose statements never carry a lead nor hold one up.
 */
import { randomUUID } from 'node:crypto'
import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { systemTimers } from '../../src/http/timers.ts'
import type { LedgerDb } from '../../src/ledger/ledger-db.ts'
import { LedgerError } from '../../src/ledger/ledger-error.ts'
import {
  MAX_SEARCH_ROWS_HELD,
  MAX_SEARCH_ROWS_PER_STATEMENT,
  SEARCH_EVENTS_FLUSH_MS,
  SEARCH_EVENTS_OVERFLOW,
} from '../../src/ledger/search-event-queue.ts'
import type { NewLead, ReplyRecord, SearchEvent } from '../../src/ledger/types.ts'
import { createWriteBatch, MAX_CHARS_PER_FLUSH } from '../../src/ledger/write-batch.ts'
import { createFakeClock } from '../support/fake-clock.ts'

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

/**
 * A stand-in database for the search-event queue beside leads: it answers a lead's insert with the lead, and
 * holds every statement that writes search events until `release()`, as a database slowed by a flood would.
 */
function slowSearchDb() {
  const statements: { leads: boolean; searchRows: boolean; searchUuids: string[] }[] = []
  let release!: () => void
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const db = {
    async execute(query: SQL) {
      const { sql: text, params } = dialect.sqlToQuery(query)
      const json = JSON.stringify(params)
      const leadIds = [...json.matchAll(/lead-[0-9a-f-]{36}/g)].map((m) => m[0])
      const statement = {
        leads: text.includes('new_leads'),
        searchRows: text.includes('placement_search'),
        searchUuids: [...json.matchAll(/search-\d+/g)].map((m) => m[0]).filter(unique),
      }
      statements.push(statement)
      if (statement.searchRows) await gate
      return { rows: leadIds.filter(unique).map((id) => ({ id, kind: 'lead' })) }
    },
  } as unknown as LedgerDb
  return { db, statements, release }
}

/** Whether `promise` has settled by now (after pending microtasks and one macrotask). */
async function settledYet(promise: Promise<unknown>): Promise<'resolved' | 'rejected' | 'pending'> {
  let state: 'resolved' | 'rejected' | 'pending' = 'pending'
  promise.then(
    () => {
      state = 'resolved'
    },
    () => {
      state = 'rejected'
    },
  )
  await new Promise<void>((resolve) => setImmediate(resolve))
  return state
}

const shownEvent = (n: number): SearchEvent => ({
  kind: 'shown',
  searchUuid: `search-${n}`,
  offerIds: Array.from({ length: 50 }, (_, i) => `offer-${i}`),
  at: new Date('2026-03-02T10:00:00Z'),
})

const newLead = (): NewLead => ({
  id: `lead-${randomUUID()}`,
  searchUuid: randomUUID(),
  state: 'CA',
  zip: '94105',
  createdAt: new Date('2026-03-02T10:00:00Z'),
  deadlineAt: new Date('2026-03-02T10:00:12Z'),
})

describe('search events beside leads', () => {
  it('refuses search events past the queue’s bound, at once, with a transient LedgerError (code overflow)', async () => {
    const clock = createFakeClock()
    const { db, statements, release } = slowSearchDb()
    const batch = createWriteBatch(db, { timers: clock.timers, timeoutMs: 5_000 })
    // Measures of 50 offers each until the queue refuses one: it must, well before 100 000 rows wait.
    const queued: Promise<void>[] = []
    let refused: unknown
    for (let n = 0; n < 2_000 && refused === undefined; n++) {
      const recorded = batch.recordSearchEvents([shownEvent(n)])
      if ((await settledYet(recorded)) === 'rejected')
        refused = await recorded.catch((error: unknown) => error)
      else queued.push(recorded)
    }
    expect(refused).toBeInstanceOf(LedgerError)
    expect((refused as LedgerError).code).toBe(SEARCH_EVENTS_OVERFLOW)
    expect((refused as LedgerError).transient).toBe(true)
    expect(queued.length * 50).toBeLessThanOrEqual(MAX_SEARCH_ROWS_HELD)
    // Full, and still refusing: nothing was written meanwhile.
    expect(await settledYet(batch.recordSearchEvents([shownEvent(99_999)]))).toBe('rejected')
    expect(statements).toEqual([])
    // Written (by drain, as a stop does) once the database answers: each queued event once.
    release()
    await batch.drain()
    await Promise.all(queued)
    const written = statements.flatMap((s) => s.searchUuids)
    expect(written).toHaveLength(queued.length)
    expect(new Set(written).size).toBe(queued.length)
  })

  it('writes a lead at once in a statement of its own, while search events wait and while their statement hangs', async () => {
    const clock = createFakeClock()
    const { db, statements, release } = slowSearchDb()
    const batch = createWriteBatch(db, { timers: clock.timers, timeoutMs: 5_000 })
    const waiting = Array.from({ length: 100 }, (_, n) => batch.recordSearchEvents([shownEvent(n)]))
    for (const recorded of waiting) recorded.catch(() => {})

    const lead = newLead()
    const created = batch.createLead(lead, [])
    expect(await settledYet(created)).toBe('resolved')
    await expect(created).resolves.toMatchObject({ created: true, lead: { id: lead.id } })
    expect(statements).toEqual([{ leads: true, searchRows: false, searchUuids: [] }])

    // The events' own timer starts their statements (each bounded); while the first hangs, a lead still goes.
    await clock.tick(SEARCH_EVENTS_FLUSH_MS)
    expect(statements.slice(1).map((s) => s.searchRows)).toEqual([true])
    expect(statements[1]?.searchUuids.length).toBeLessThanOrEqual(MAX_SEARCH_ROWS_PER_STATEMENT / 50)
    const second = newLead()
    const secondCreated = batch.createLead(second, [])
    expect(await settledYet(secondCreated)).toBe('resolved')
    expect(statements.at(-1)).toEqual({ leads: true, searchRows: false, searchUuids: [] })

    release()
    await batch.drain()
    await Promise.all(waiting)
    expect(statements.flatMap((s) => s.searchUuids)).toHaveLength(100)
    expect(statements.filter((s) => s.leads).every((s) => !s.searchRows)).toBe(true)
  })
})
