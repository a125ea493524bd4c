/**
 * @module The Bun recipe of docs/running-the-bff.md run in Bun (the npm registry's `bun`), from the sources:
 * an offer search and its polls through it, against a sandbox upstream in this Node process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { block } from '../docs/support/readme-blocks.ts'
import {
  freePort,
  type RecordingSandbox,
  type RunningRuntime,
  recipeFile,
  runtimeBin,
  SERVER_ENTRY_SOURCE,
  searchUntilComplete,
  startRecordingSandbox,
  startRuntime,
  upstreamEnv,
  VISITOR_UA,
} from './support/runtime-bff.ts'

let sandbox: RecordingSandbox
let bun: RunningRuntime

beforeAll(async () => {
  sandbox = await startRecordingSandbox()
  const port = await freePort()
  const file = recipeFile(block('bun').code, SERVER_ENTRY_SOURCE, 'bff.ts')
  bun = await startRuntime(runtimeBin('bun'), ['run', file], { env: upstreamEnv(sandbox, port), port })
}, 90_000)

afterAll(async () => {
  await bun?.stop()
  await sandbox?.close()
})

describe('Bun', () => {
  it('serves an offer search and its polls until complete, the visitor from the socket', async () => {
    // Without TRUST_PROXY a forwarded address is ignored: the upstream gets the socket's peer.
    const { created, polls, rateTable } = await searchUntilComplete(bun.url, {
      'x-forwarded-for': '198.51.100.4',
    })
    expect(created.status, bun.output()).toBe(201)
    expect(polls).toBeGreaterThan(0)
    expect(rateTable.offers.length).toBeGreaterThan(0)
    expect(sandbox.visitors).toEqual([{ ipAddress: '127.0.0.1', userAgent: VISITOR_UA }])
  }, 60_000)
})
