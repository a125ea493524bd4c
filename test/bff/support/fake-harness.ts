/** @module A BFF in front of the scripted fake upstream, which answers every route validly by default. */
import type { BffOptions } from '../../../src/bff/create-bff.ts'
import { type FakeUpstream, ISSUERS, rateTable, startFakeUpstream } from './fake-upstream.ts'
import { buildHarness, type Harness } from './harness.ts'

export const FAKE_TOKEN = 'fake-upstream-token-7f3a91'
export const CREATED_UUID = '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6'

export async function fakeHarness(
  env: Record<string, string> = {},
  options: BffOptions = {},
  peer?: () => string,
): Promise<Harness & { upstream: FakeUpstream }> {
  const upstream = await startFakeUpstream()
  upstream.fallback = (request) => {
    if (request.url.endsWith('/issuers')) return { status: 200, body: ISSUERS }
    if (request.method === 'POST') return { status: 201, body: rateTable(CREATED_UUID, 1) }
    const uuid = request.url.split('/').pop() ?? ''
    return { status: 200, body: rateTable(uuid, 1) }
  }
  const harness = buildHarness(
    { ENGINE_TOKEN: FAKE_TOKEN, ENGINE_BASE_URL_TEST: upstream.url, ...env },
    { rateLimit: false, ...options },
    peer,
  )
  return {
    ...harness,
    upstream,
    close: async () => {
      await harness.close()
      await upstream.close()
    },
  }
}
