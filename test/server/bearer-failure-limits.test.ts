/**
 * Every bearer-token route of a started server limits wrong tokens per client address (issue 44: 300 wrong
 * report tokens from one address never met a 429, nor 100 on `/api/conversions`), and a right token from
 * that address still passes. Sandbox mode, PGlite in memory, the reports and conversions of the second look.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AUTH_FAILURE_POINTS } from '../../src/bff/middleware/rate-limit/failure-limit.ts'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { http } from '../support/server-requests.ts'

const REPORTS = 'Zq9operator-reports-token-0123456789'
let running: RunningServer

beforeAll(async () => {
  running = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      REPORTS_TOKEN: REPORTS,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bearer-limits-')),
    }),
    { secondLook: { inMemoryLedger: true } },
  )
})
afterAll(() => running?.close())

const reports = (token: string) =>
  http(`${running.url}/api/reports/partners`, { headers: { authorization: `Bearer ${token}` } })
const conversion = (token: string) =>
  http(`${running.url}/api/conversions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({}),
  })

it('answers 429 after too many wrong tokens across reports and conversions; the right token still reads', async () => {
  const statuses: number[] = []
  for (let i = 0; i < 150; i++) statuses.push((await reports(`wrong-${i}`.padEnd(36, 'x'))).status)
  for (let i = 0; i < 100; i++) statuses.push((await conversion(`wrong-${i}`.padEnd(36, 'y'))).status)
  expect(statuses.slice(0, AUTH_FAILURE_POINTS)).toEqual(Array(AUTH_FAILURE_POINTS).fill(401))
  expect(new Set(statuses.slice(AUTH_FAILURE_POINTS))).toEqual(new Set([429]))
  const limited = await reports('still-wrong'.padEnd(36, 'z'))
  expect(limited.status).toBe(429)
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
  // A shared address (a NAT) with one guesser behind it does not lock the operator out.
  expect((await reports(REPORTS)).status).toBe(200)
  const metrics = (await http(`${running.url}/metrics`)).text
  expect(metrics).toMatch(/bff_rate_limited_total\{[^}]*route="reports-and-conversions"[^}]*\} \d+/)
})
