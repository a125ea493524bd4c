/**
 * @module The embedded ledger's PGlite in its own thread (issue 43, `src/ledger/pglite-thread.ts`): its
 * statements run beside the event loop, errors keep their SQLSTATE, a closed or dead thread fails calls as a
 * dropped database does, and what it wrote on disk is there for the next open. The store's own behaviour on
 * the thread runs in `ledger-store.test.ts` (`PGLITE_THREAD_DRIVER`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Ledger, openLedger } from '../../src/ledger/index.ts'
import { toLedgerError } from '../../src/ledger/ledger-error.ts'
import { openPgliteThread } from '../../src/ledger/pglite-thread.ts'
import { countLoopTurns } from '../support/loop-turns.ts'

// A real thread, a real PGlite: opening takes a second or two on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

const opened: Ledger[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((ledger) => ledger.close().catch(() => {})))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function open(thread: 'worker' | 'main', dataDir?: string): Promise<Ledger> {
  const ledger = await openLedger(dataDir ? { dataDir, thread } : { inMemory: true, thread })
  opened.push(ledger)
  return ledger
}

/** Turns of the event loop (macrotasks) that ran while `run` was pending. */
async function turnsDuring(run: () => Promise<unknown>): Promise<number> {
  const counter = countLoopTurns()
  let turns = 0
  try {
    await run()
  } finally {
    turns = counter.stop()
  }
  return turns
}

describe('PGlite in its own thread', () => {
  it('a statement runs beside the event loop, where in the calling thread it holds it', async () => {
    const threaded = await open('worker')
    const inline = await open('main')
    // 0.3 s of the database's own work: the thread's loop keeps turning, the caller's stops for all of it.
    const slow = (ledger: Ledger) => ledger.db.execute(sql`select pg_sleep(0.3)`)
    expect(await turnsDuring(() => slow(threaded))).toBeGreaterThan(20)
    expect(await turnsDuring(() => slow(inline))).toBeLessThanOrEqual(3)
  })

  it('answers as PGlite does: rows, and a failed statement with its SQLSTATE', async () => {
    const ledger = await open('worker')
    const result = (await ledger.db.execute(
      sql`select 1 + 1 as two, '2026-03-02 10:00:00+00'::timestamptz as at, '{"a":1}'::jsonb as doc`,
    )) as unknown as { rows: unknown[] }
    // Timestamps stay text, as drizzle's PGlite driver leaves them for its own mapping.
    expect(result.rows).toEqual([{ two: 2, at: '2026-03-02 10:00:00+00', doc: { a: 1 } }])
    const failed = await ledger.db.execute(sql`select 1 / 0`).catch((error: unknown) => error)
    expect(toLedgerError('test', failed)).toMatchObject({ code: '22012', transient: false })
  })

  it('after close, a call fails at once as a transient error, as a dropped connection does', async () => {
    const ledger = await open('worker')
    await ledger.close()
    const failed = await ledger.db.execute(sql`select 1`).catch((error: unknown) => error)
    expect(toLedgerError('test', failed)).toMatchObject({ code: 'ECONNRESET', transient: true })
    // Closing again is harmless.
    await ledger.close()
  })

  it('what it wrote on disk is there for the next open, in either thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'))
    dirs.push(dir)
    const first = await open('worker', dir)
    await first.db.execute(sql`create table kept (note text)`)
    await first.db.execute(sql`insert into kept values ('written in the thread')`)
    await first.close()
    const second = await open('main', dir)
    const rows = ((await second.db.execute(sql`select note from kept`)) as unknown as { rows: unknown[] })
      .rows
    expect(rows).toEqual([{ note: 'written in the thread' }])
  })

  it('an open that fails in the thread fails the open, saying why', async () => {
    // A PGlite start parameter PostgreSQL refuses: the thread's PGlite fails to start.
    const failed = await openPgliteThread({ startParams: ['-c', 'no_such_setting_here=1'] }).catch(
      (error: unknown) => error,
    )
    expect(String(failed)).toMatch(/opening the PGlite ledger failed: /)
  })

  it('a transaction holds the session: a call from outside waits for it to end', async () => {
    const client = await openPgliteThread({ startParams: [] })
    try {
      await client.query('create table seen (n int)')
      const order: string[] = []
      let release!: () => void
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      const tx = client.transaction(async (inside) => {
        await inside.query('insert into seen values (1)')
        order.push('inside wrote')
        await gate
        await inside.query('insert into seen values (2)')
        order.push('inside done')
      })
      const outside = client.query('select count(*)::int as n from seen').then((result) => {
        order.push('outside read')
        return result.rows
      })
      // Let the transaction's first statement and the outside call's wait both happen, then release.
      while (order.length === 0) await new Promise((resolve) => setImmediate(resolve))
      release()
      await tx
      // The outside read ran after the commit: it saw both rows, never half a transaction.
      expect(await outside).toEqual([{ n: 2 }])
      expect(order).toEqual(['inside wrote', 'inside done', 'outside read'])
    } finally {
      await client.close()
    }
  })
})
