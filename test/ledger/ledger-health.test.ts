/**
 * Every ledger call has a timeout, `/readyz` reports the ledger while offer searches go on without it,
 * and PGlite keeps its files in an owner-only directory. On fake time; PostgreSQL behind a TCP proxy.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openLedger } from '../../src/ledger/index.ts'
import { LedgerError } from '../../src/ledger/ledger-error.ts'
import { postJson, sandboxHarness } from '../bff/support/harness.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import { type FaultyLedger, LEDGER_DRIVERS } from './support/ledger-drivers.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 })

const TOKEN = 'ledger-health-sandbox-token'

describe.each(LEDGER_DRIVERS)('ledger health on $name (fake time)', (driver) => {
  let clock: FakeClock
  let db: FaultyLedger
  beforeAll(async () => {
    clock = createFakeClock()
    db = await driver.openFaulty({ timers: clock.timers, timeoutMs: 1_500 })
  })
  afterAll(async () => {
    await db.up()
    await db.close()
  })

  it.each(['cut', 'hang'] as const)(
    'with the database %s, every call fails within the timeout as a transient LedgerError naming no data',
    async (mode) => {
      await db.down(mode)
      try {
        const started = clock.now()
        // Every call at once, each turned into its error before anything is awaited.
        const failed = (call: Promise<unknown>) =>
          call.then(
            () => undefined,
            (e: unknown) => e,
          )
        const outcomes = {
          ping: failed(db.ledger.ping()),
          getSearch: failed(db.ledger.getSearch('00000000-0000-4000-8000-000000000001')),
          findOffer: failed(db.ledger.findOffer('00000000-0000-4000-8000-000000000002')),
          recordClick: failed(
            db.ledger.recordClick({
              offerId: '00000000-0000-4000-8000-000000000003',
              leadId: '00000000-0000-4000-8000-000000000004',
              partnerId: 'p',
              clickedAt: new Date(clock.now()),
            }),
          ),
        }
        await clock.runUntil(Promise.all(Object.values(outcomes)))
        expect(clock.now() - started).toBeLessThanOrEqual(1_600)
        for (const [name, outcome] of Object.entries(outcomes)) {
          const error = await outcome
          expect(error, name).toBeInstanceOf(LedgerError)
          expect((error as LedgerError).transient, name).toBe(true)
          expect((error as Error).message, name).not.toMatch(/0000-4000/)
        }
      } finally {
        await db.up()
      }
      // And it recovers once the database is back: connections hung by a partition are dropped, not reused.
      await vi.waitFor(() => clock.runUntil(db.ledger.ping()), { timeout: 10_000, interval: 100 })
    },
  )

  it('/readyz stays 200 but degraded, naming the ledger, while it is down (503 only when required); offer searches still work; ready again once it is back', async () => {
    const h = await sandboxHarness(
      TOKEN,
      {},
      {
        readinessChecks: [{ name: 'ledger', check: () => db.ledger.ping() }],
        timers: clock.timers,
      },
    )
    try {
      expect((await clock.runUntil(h.request('/readyz'))).status).toBe(200)
      await clock.tick(5_000)
      await db.down()
      // The replica still answers offer searches: it stays in rotation, and says what is down and what it costs.
      const down = await clock.runUntil(h.request('/readyz'))
      expect(down.status).toBe(200)
      expect(await down.json()).toMatchObject({
        status: 'degraded',
        code: 'ledger_unavailable',
        failing: ['ledger'],
        message: expect.stringMatching(
          /ledger check failed \(.+\): second-look leads are refused until it answers/,
        ),
      })
      // A load balancer that sends leads to a pool of their own requires the ledger.
      const required = await clock.runUntil(h.request('/readyz?require=ledger'))
      expect(required.status).toBe(503)
      expect(await required.json()).toMatchObject({ status: 'not_ready', failing: ['ledger'] })
      // The offer search API has no use for the ledger.
      expect((await h.request('/api/offer-searches', postJson({}))).status).toBe(201)
      await db.up()
      await clock.tick(5_000)
      const back = await clock.runUntil(h.request('/readyz'))
      expect(back.status, await back.clone().text()).toBe(200)
    } finally {
      await h.close()
    }
  })
})

describe('PGlite data directory', () => {
  // Two PGlite databases on disk: tens of seconds on a busy machine.
  it('is created owner-only, and an existing one is tightened', { timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'ledger-perms-'))
    try {
      const ledger = await openLedger({ dataDir: root })
      await ledger.close()
      expect(statSync(join(root, 'ledger')).mode & 0o777).toBe(0o700)
      const loose = mkdtempSync(join(tmpdir(), 'ledger-perms-'))
      mkdirSync(join(loose, 'ledger'), { mode: 0o755 })
      const again = await openLedger({ dataDir: loose })
      await again.close()
      expect(statSync(join(loose, 'ledger')).mode & 0o777).toBe(0o700)
      rmSync(loose, { recursive: true, force: true })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
