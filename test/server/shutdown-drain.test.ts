/**
 * @module SIGTERM's drain on the real server object (`startServer`, what `npm start` runs): while a
 * second-look lead is in flight the listener stays open, its widget's polls are answered and see the offers
 * that settle during the drain, `/readyz` says not ready, and only new leads are refused; then the server
 * closes. The partner is a real HTTP server that holds its reply until the test releases it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { rateTableSchema } from '../../src/contract/offer-search.ts'
import { answerLead } from '../../src/partner-kit/answer-lead.ts'
import { sampleLeads } from '../../src/partner-kit/index.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createShutdownDrain } from '../../src/server/shutdown-drain.ts'
import { startServer } from '../../src/server/start-server.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { signal, watch } from '../support/promises.ts'
import { http, submitSampleLead } from '../support/server-requests.ts'

vi.setConfig({ testTimeout: 30_000 })

/** A partner that answers like the reference partner, but only once `release` is resolved. */
async function heldPartner() {
  const received = signal()
  const release = signal()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', async () => {
      received.resolve()
      await release.promise
      const reply = answerLead(JSON.parse(body), {
        secret: 'held-partner-secret-0123456789',
        now: new Date(),
        partnerName: 'Held Lending',
      })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(reply))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    received,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

describe('SIGTERM drain on the real server', () => {
  it('keeps answering the polls of a lead in flight until it settles, says not ready, refuses only new leads', async () => {
    const partner = await heldPartner()
    const dir = mkdtempSync(join(tmpdir(), 'drain-'))
    const partnersFile = join(dir, 'partners.json')
    writeFileSync(
      partnersFile,
      JSON.stringify({
        partners: [{ id: 'held', name: 'Held Lending', tier: 'second', endpoint: partner.url }],
      }),
    )
    const running = await startServer(
      loadConfig({ PORT: '0', LOG_LEVEL: 'silent', PARTNERS_FILE: partnersFile, DATA_DIR: dir }),
      { staticRoot: '/nonexistent', secondLook: { inMemoryLedger: true } },
    )
    try {
      const headers = {
        'content-type': 'application/json',
        'x-offer-widget': 'test',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) DrainTest/1',
      }
      const { accessToken, rateTable } = await submitSampleLead(running.url, headers)
      const poll = async () =>
        rateTableSchema.parse(
          JSON.parse(
            (
              await http(`${running.url}/api/second-look/${rateTable.uuid}`, {
                headers: { ...headers, 'x-offer-access-token': accessToken },
              })
            ).text,
          ),
        )
      await partner.received.promise

      const closed = watch(running.close())
      // The lead is still out: the server answers its polls, says not ready, and refuses a new lead.
      const ready = await http(`${running.url}/readyz`)
      expect(ready.status).toBe(503)
      expect(JSON.parse(ready.text)).toMatchObject({
        status: 'not_ready',
        code: 'shutting_down',
        failing: ['shutdown'],
      })
      expect((await poll()).pendingResponses.map((p) => p.partner.uuid)).toEqual(['held'])
      const refused = await http(`${running.url}/api/second-look`, {
        method: 'POST',
        headers,
        body: JSON.stringify(sampleLeads().find((sample) => sample.id === 'complete')?.lead),
      })
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe('1')
      // One answer for a shutdown, wherever it is asked: the code a closing server and /readyz give too.
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'shutting_down' })
      expect(closed.settled()).toBe(false)

      // The partner answers during the drain: the visitor's widget sees its offers.
      partner.release.resolve()
      const settled = await vi.waitFor(
        async () => {
          const table = await poll()
          expect(table.pendingResponses).toEqual([])
          return table
        },
        { timeout: 10_000, interval: 100 },
      )
      expect(settled.offers.map((o) => o.financialInstitutionDisplayName)).toContain('Held Lending')
      await closed.promise
      const after = await http(`${running.url}/healthz`).then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      )
      expect(after).toBe('ECONNREFUSED')
    } finally {
      await running.close()
      await partner.close()
    }
  })
})

describe('createShutdownDrain (fake time)', () => {
  it('answers /readyz 503 only while draining, and lingers after leads settle so pollers read the result', async () => {
    const clock = createFakeClock()
    const gate = createShutdownDrain({ lingerMs: 2_500, timers: clock.timers })
    expect(gate.intercept(new Request('http://bff.test/readyz'))).toBeUndefined()
    const settle = signal()
    const run = watch(gate.run({ inFlight: 1, drain: () => settle.promise }))
    expect(gate.intercept(new Request('http://bff.test/readyz'))?.status).toBe(503)
    expect(gate.intercept(new Request('http://bff.test/api/second-look/x'))).toBeUndefined()
    settle.resolve()
    await clock.tick(2_499)
    expect(run.settled()).toBe(false)
    await clock.tick(1)
    await run.promise
  })

  it('does not linger when no lead was in flight', async () => {
    const gate = createShutdownDrain({ lingerMs: 60_000, timers: createFakeClock().timers })
    await gate.run({ inFlight: 0, drain: async () => {} })
    expect(gate.draining).toBe(true)
  })
})
