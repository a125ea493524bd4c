/**
 * @module The Deno recipe of docs/running-the-bff.md run in Deno (the npm registry's `deno`), from the sources:
 * an offer search and its polls through it, against a sandbox upstream in this Node process, and a second-look
 * lead written to the ledger (PostgreSQL at `DATABASE_URL`, as in CI; PGlite without it) and polled until complete.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { block } from '../docs/support/readme-blocks.ts'
import { makeIssuedLead } from '../marketplace/support/harness.ts'
import {
  dependencyReady,
  freePort,
  LEDGER,
  type RecordingSandbox,
  type RunningRuntime,
  recipeFile,
  runtimeBin,
  SERVER_ENTRY_SOURCE,
  searchUntilComplete,
  secondLookUntilComplete,
  startRecordingSandbox,
  startRuntime,
  untilReady,
  upstreamEnv,
  VISITOR_UA,
} from './support/runtime-bff.ts'

let sandbox: RecordingSandbox
let deno: RunningRuntime

beforeAll(async () => {
  sandbox = await startRecordingSandbox()
  const port = await freePort()
  const file = recipeFile(block('deno').code, SERVER_ENTRY_SOURCE, 'bff.ts')
  deno = await startRuntime(
    runtimeBin('deno'),
    // The recipe's permissions; the repository's package.json and node_modules resolve the npm packages, as a
    // publisher's project does.
    [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-write',
      '--allow-sys',
      '--node-modules-dir=manual',
      file,
    ],
    { env: { ...upstreamEnv(sandbox, port), DENO_NO_UPDATE_CHECK: '1' }, port },
  )
}, 90_000)

afterAll(async () => {
  await deno?.stop()
  await sandbox?.close()
})

describe('Deno', () => {
  it('serves an offer search and its polls until complete, the visitor from the socket', async () => {
    // Without TRUST_PROXY a forwarded address is ignored: the upstream gets the socket's peer.
    const { created, polls, rateTable } = await searchUntilComplete(deno.url, {
      'x-forwarded-for': '198.51.100.4',
    })
    expect(created.status, deno.output()).toBe(201)
    expect(polls).toBeGreaterThan(0)
    expect(rateTable.offers.length).toBeGreaterThan(0)
    expect(sandbox.visitors).toEqual([{ ipAddress: '127.0.0.1', userAgent: VISITOR_UA }])
  }, 60_000)

  it(`takes a second-look lead into its ledger on ${LEDGER.name} and completes it`, async () => {
    await untilReady(deno.url)
    const { created, body, rateTable } = await secondLookUntilComplete(deno.url, makeIssuedLead())
    expect(created.status, body).toBe(201)
    // No PARTNERS_FILE outside sandbox mode: no partner is asked, so the lead completes with no offers.
    expect(rateTable.offers).toEqual([])
    if (LEDGER.env.DATABASE_URL === undefined) return
    const client = new pg.Client({ connectionString: LEDGER.env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query('select status from marketplace_leads where search_uuid = $1', [
        rateTable.uuid,
      ])
      expect(rows).toEqual([{ status: 'complete' }])
    } finally {
      await client.end()
    }
  }, 90_000)

  it.skipIf(process.env.REDIS_URL === undefined)(
    'connects to Redis at REDIS_URL (ioredis)',
    async () => {
      await untilReady(deno.url)
      expect(await dependencyReady(deno.url, 'redis')).toBe('1')
    },
    90_000,
  )
})
