/**
 * @module `npm start` on an empty DATA_DIR, with the real PGlite: the port binds at once, `/readyz` says
 * degraded (the ledger is opening; 503 with `?require=ledger`) until the ledger is open, a lead meanwhile is a quick 503 with Retry-After
 * rather than a wait for a database to be made, and once ready the first lead is created at once.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { sampleLeads } from '../../src/partner-kit/index.ts'
import { loadConfig } from '../../src/server/config.ts'
import { startServer } from '../../src/server/start-server.ts'
import { http, submitSampleLead } from '../support/server-requests.ts'

const HEADERS = {
  'content-type': 'application/json',
  'x-offer-widget': 'test',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) FreshLedgerTest/1',
}

it('opens the ledger before it says ready, and no lead waits for it', { timeout: 90_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fresh-server-'))
  // A short bound, so a lead that arrives while the ledger opens is answered well before the open ends.
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, LEDGER_TIMEOUT_MS: '300' })
  const running = await startServer(config, { staticRoot: '/nonexistent' })
  try {
    // In rotation (offer searches need no ledger), degraded until the ledger is open; a startup probe that
    // requires the ledger waits for it.
    const opening = await http(`${running.url}/readyz`)
    expect(opening.status, opening.text).toBe(200)
    expect(JSON.parse(opening.text)).toMatchObject({
      status: 'degraded',
      code: 'ledger_unavailable',
      failing: ['ledger'],
    })
    expect(opening.text).toMatch(/opening/)
    expect((await http(`${running.url}/readyz?require=ledger`)).status).toBe(503)

    const early = await http(`${running.url}/api/second-look`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify(sampleLeads().find((sample) => sample.id === 'complete')?.lead),
    })
    expect(early.status, early.text).toBe(503)
    expect(early.headers['retry-after']).toBeDefined()

    await vi.waitFor(
      async () => {
        const ready = await http(`${running.url}/readyz`)
        expect(JSON.parse(ready.text), ready.text).toMatchObject({ status: 'ready' })
      },
      { timeout: 60_000, interval: 250 },
    )
    const { rateTable } = await submitSampleLead(running.url, HEADERS)
    expect(rateTable.uuid).toBeDefined()
  } finally {
    await running.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
