/**
 * @module Issue 11, "one bad offer never hides the others", in the BFF: an upstream rate table with one
 * offer that breaks the contract is served without it (not a 502), the drop is counted in
 * `bff_rate_table_items_dropped_total{item,reason}` once per rate table however often it is polled, and
 * logged in one line per rate table with reasons and ids only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { createMetrics } from '../../src/bff/metrics.ts'
import { createUpstreamClient } from '../../src/bff/upstream/index.ts'
import { makeOffer } from '../../src/playground/scenarios/fixtures.ts'
import { type FakeUpstream, logSink, rateTable, startFakeUpstream } from './support/fake-upstream.ts'

const UUID = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'
const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`
const SECRET_TEXT = 'Headline only the offer carries 4111'

let upstream: FakeUpstream
beforeAll(async () => {
  upstream = await startFakeUpstream()
})
afterAll(() => upstream.close())

function tableWithOneBadOffer() {
  const { recommendationScore: _, ...broken } = makeOffer({ rank: 1, uuid: uuid(1), headline: SECRET_TEXT })
  const dead = makeOffer({ rank: 2, uuid: uuid(2), url: 'javascript:alert(1)' })
  const long = makeOffer({ rank: 3, uuid: uuid(3), financialInstitutionDisplayName: 'N'.repeat(600) })
  return { ...rateTable(UUID, 1), offers: [broken, dead, long] }
}

describe('per-offer validation in the BFF', () => {
  it('serves the good offers, counts each drop once per rate table with its reason, logs once', async () => {
    upstream.fallback = (request) =>
      request.method === 'POST'
        ? { status: 201, body: tableWithOneBadOffer() }
        : { status: 200, body: tableWithOneBadOffer() }
    const logs = logSink()
    const metrics = createMetrics()
    const client = createUpstreamClient({
      baseUrl: upstream.url,
      token: 'upstream-test-token-Zq9',
      apiVersion: '2026-02-25',
      env: 'test',
      logger: createLogger({ destination: logs.destination }),
      metrics,
    })
    try {
      const created = await client.createOfferSearch({
        productTypes: ['AutomobileInsurance'],
        sessionInformation: { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0' },
      })
      expect(created.value.offers.map((o) => o.uuid)).toEqual([uuid(3)])
      // The answer's bytes are the sifted table, not the upstream's text with the bad offers in it.
      expect(JSON.parse(created.json).offers.map((o: { uuid: string }) => o.uuid)).toEqual([uuid(3)])
      for (let i = 0; i < 3; i++) {
        expect((await client.getOfferSearch(UUID)).value.offers.map((o) => o.uuid)).toEqual([uuid(3)])
      }
      const counter = await metrics.droppedRateTableItems.get()
      const byReason = Object.fromEntries(counter.values.map((v) => [String(v.labels.reason), v.value]))
      expect(byReason).toEqual({ invalid_recommendationScore: 1, non_http_link: 1 })
      const lines = logs.lines.filter((l) => l.includes('break the offer search contract'))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(uuid(1))
      expect(lines[0]).not.toContain(SECRET_TEXT)
      expect(logs.lines.join('\n')).not.toContain('javascript:')
    } finally {
      await client.close()
    }
  })
})
