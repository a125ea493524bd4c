/**
 * @module The ledger the server opens in the background: while it opens, readiness fails at once saying so
 * and every call fails within `timeoutMs` as a transient LedgerError (the lead route's 503), however long the
 * open takes; a failed open is retried with backoff; closing never waits for an open for ever. Fake time.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type Ledger, LedgerError, openLedger } from '../../src/ledger/index.ts'
import { openInBackground } from '../../src/ledger/open-in-background.ts'
import { createFakeClock } from '../support/fake-clock.ts'

const UUID = '00000000-0000-4000-8000-000000000001'
const never = () => new Promise<Ledger>(() => {})
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'resolved',
    (error: unknown) => error,
  )

const opened: Ledger[] = []
afterEach(async () => {
  for (const ledger of opened.splice(0)) await ledger.close()
})

describe('a ledger opening in the background (fake time)', () => {
  it('with an open that never ends, calls fail within timeoutMs as transient LedgerErrors and readiness says opening', async () => {
    const clock = createFakeClock()
    const ledger = openInBackground(never, { driver: 'pglite', timeoutMs: 500, timers: clock.timers })
    const ping = await outcome(ledger.ping())
    expect(ping).toBeInstanceOf(LedgerError)
    expect((ping as LedgerError).code).toBe('opening')
    expect((ping as LedgerError).transient).toBe(true)

    const started = clock.now()
    const calls = [
      ledger.getSearch(UUID),
      ledger.findOffer(UUID),
      ledger.claimLeads({ owner: 'a', now: new Date(), until: new Date(), limit: 1 }),
    ]
    const results = Promise.all(calls.map(outcome))
    await clock.tick(499)
    let settled = false
    void results.then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(false)
    await clock.tick(1)
    for (const error of await results) {
      expect(error).toBeInstanceOf(LedgerError)
      expect((error as LedgerError).code).toBe('timeout')
      expect((error as LedgerError).transient).toBe(true)
    }
    expect(clock.now() - started).toBe(500)
    expect(() => ledger.db).toThrow(/still opening/)
    // Closing does not wait for the open for ever either.
    const closing = ledger.close()
    await clock.tick(500)
    await closing
    expect(await outcome(ledger.getSearch(UUID))).toMatchObject({ code: 'closed' })
  })

  // Opens a real PGlite in memory: seconds on a busy machine.
  it('retries a failed open with backoff, failing calls at once meanwhile, and serves once open', {
    timeout: 60_000,
  }, async () => {
    const clock = createFakeClock()
    const real = await openLedger({ inMemory: true, timers: clock.timers })
    opened.push(real)
    const errors: number[] = []
    let attempts = 0
    const ledger = openInBackground(
      async () => {
        attempts++
        if (attempts < 3) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' })
        return real
      },
      {
        driver: 'pglite',
        timeoutMs: 500,
        timers: clock.timers,
        onOpenError: (_, retryInMs) => errors.push(retryInMs),
      },
    )
    await clock.tick(0)
    expect(attempts).toBe(1)
    const failed = await outcome(ledger.getSearch(UUID))
    expect(failed).toMatchObject({ code: 'not_open', transient: true })
    expect((failed as Error).message).toMatch(/ENOSPC/)
    expect(await outcome(ledger.ping())).toMatchObject({ code: 'not_open' })

    await clock.tick(999)
    expect(attempts).toBe(1)
    await clock.tick(1)
    expect(attempts).toBe(2)
    await clock.tick(2_000)
    expect(attempts).toBe(3)
    expect(errors).toEqual([1_000, 2_000])
    await clock.runUntil(ledger.ping())
    expect(await clock.runUntil(ledger.getSearch(UUID))).toBeUndefined()
    expect(ledger.db).toBe(real.db)
  })

  // Opens a real PGlite in memory too: past the default 5 s on a busy machine (seen in CI on Node 24).
  it('a call made while it opens is served once the open ends within timeoutMs', {
    timeout: 60_000,
  }, async () => {
    const clock = createFakeClock()
    const real = await openLedger({ inMemory: true, timers: clock.timers })
    opened.push(real)
    let finish!: (ledger: Ledger) => void
    const ledger = openInBackground(() => new Promise<Ledger>((resolve) => (finish = resolve)), {
      driver: 'pglite',
      timeoutMs: 500,
      timers: clock.timers,
    })
    const search = ledger.getSearch(UUID)
    await clock.tick(300)
    finish(real)
    expect(await clock.runUntil(search)).toBeUndefined()
  })
})
