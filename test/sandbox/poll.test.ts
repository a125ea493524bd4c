import { describe, expect, it, vi } from 'vitest'
import { offerSchema, type RateTable, rateTableSchema } from '../../src/contract/offer-search.ts'
import { createSandbox } from '../../src/sandbox/index.ts'
import { errorFields, harness, headers } from './support/sandbox-tests.ts'

const UNKNOWN = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'

describe('GET /offerSearches/{uuid} (docs/offer-search-api.md: "a malformed value gives 400")', () => {
  for (const bad of [
    'not-a-uuid',
    '1b4e28ba2fa141d2883f0016d3cca427',
    '1b4e28ba-2fa1-41d2-883f-0016d3cca42',
    'zzzzzzzz-2fa1-41d2-883f-0016d3cca427',
  ]) {
    it(`answers 400 naming uuid for ${bad}`, async () => {
      const response = await harness().poll(bad)
      expect(response.status).toBe(400)
      expect(await errorFields(response)).toEqual(['uuid'])
    })
  }

  it('answers 404 for an unknown uuid ("Rate table uuid does not exist")', async () => {
    const response = await harness().poll(UNKNOWN)
    expect(response.status).toBe(404)
    expect(await errorFields(response)).toEqual(['uuid'])
  })

  it('answers 404 for a uuid created in the other environment ("Valid only in the environment that created it")', async () => {
    const h = harness()
    const fromTest = await h.createTable()
    const fromProduction = await h.createTable(undefined, 'production')
    h.advance(2000)
    expect((await h.poll(fromTest.uuid, 'production')).status).toBe(404)
    expect((await h.poll(fromProduction.uuid, 'test')).status).toBe(404)
    expect((await h.poll(fromTest.uuid, 'test')).status).toBe(200)
    expect((await h.poll(fromProduction.uuid, 'production')).status).toBe(200)
  })

  it('finds a rate table whatever the letter case of its uuid', async () => {
    const h = harness()
    const table = await h.createTable()
    h.advance(1000)
    expect((await h.poll(table.uuid.toUpperCase())).status).toBe(200)
  })
})

describe('poll rate limit (docs/offer-search-api.md Limits: "no more than about once per second per rate table"; 429 "honor `Retry-After`")', () => {
  it('answers 429 with Retry-After in seconds when the same rate table is polled twice within a second', async () => {
    const h = harness()
    const table = await h.createTable()
    h.advance(1000)
    expect((await h.poll(table.uuid)).status).toBe(200)
    h.advance(400)
    const limited = await h.poll(table.uuid)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(await errorFields(limited)).toEqual(['uuid'])
    h.advance(600)
    expect((await h.poll(table.uuid)).status).toBe(200)
  })

  it('a refused poll does not restart the second', async () => {
    const h = harness()
    const table = await h.createTable()
    expect((await h.poll(table.uuid)).status).toBe(200)
    h.advance(900)
    expect((await h.poll(table.uuid)).status).toBe(429)
    h.advance(100)
    expect((await h.poll(table.uuid)).status).toBe(200)
  })

  it('limits each rate table on its own', async () => {
    const h = harness()
    const a = await h.createTable()
    const b = await h.createTable()
    expect((await h.poll(a.uuid)).status).toBe(200)
    expect((await h.poll(b.uuid)).status).toBe(200)
  })

  it('takes its interval from minPollIntervalMs', async () => {
    const h = harness({ minPollIntervalMs: 2500 })
    const table = await h.createTable()
    expect((await h.poll(table.uuid)).status).toBe(200)
    h.advance(1000)
    const limited = await h.poll(table.uuid)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
  })
})

describe('partners answer over time (docs/offer-search-api.md States: "Its offers are added to `offers`; the partner is removed from `pendingResponses`")', () => {
  it('moves partners from pendingResponses to offers as their delays pass, then completes', async () => {
    const h = harness()
    const created = await h.createTable()
    const seen: RateTable[] = [created]
    for (let second = 1; second <= 6; second++) {
      h.advance(1000)
      const response = await h.poll(created.uuid)
      expect(response.status).toBe(200)
      seen.push(rateTableSchema.parse(await response.json()))
    }
    const pending = seen.map((t) => t.pendingResponses.length)
    const offers = seen.map((t) => t.offers.length)
    // Default scenario: partners at 0 s, 1.5 s, 3 s and 4.8 s.
    expect(pending).toEqual([3, 3, 2, 1, 1, 0, 0])
    expect(offers).toEqual([2, 2, 4, 6, 6, 7, 7])
    // Offers only ever join; earlier ones keep their place and uuid.
    for (let i = 1; i < seen.length; i++) {
      const before = (seen[i - 1] as RateTable).offers.map((o) => o.uuid)
      expect((seen[i] as RateTable).offers.map((o) => o.uuid).slice(0, before.length)).toEqual(before)
    }
    // A partner that answered is not pending any more.
    const final = seen.at(-1) as RateTable
    expect(final.pendingResponses).toEqual([])
  })

  it('a pending response names its partner in full and the product types it was queried for', async () => {
    const h = harness()
    const created = await h.createTable()
    for (const pending of created.pendingResponses) {
      expect(pending.offerCatalogProductTypes).toEqual(['AutomobileInsurance'])
      expect(Object.keys(pending.partner).sort()).toEqual(
        [
          'brandName',
          'brandUuid',
          'description',
          'disclaimer',
          'imageUrl',
          'name',
          'shouldDisplayPreSelect',
          'supportsPersonalizedOffers',
          'supportsPreSelect',
          'uuid',
        ].sort(),
      )
    }
  })

  it('works with no injected clock under vi.useFakeTimers (Date.now)', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z') })
    try {
      const sandbox = createSandbox({
        tokens: { test: ['test-token-aaaa'], production: ['prod-token-bbbb'] },
      })
      const created = await sandbox.app.request('/test/offerSearches/', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          productTypes: ['AutomobileInsurance'],
          sessionInformation: { ipAddress: '::1', userAgent: 'UA' },
        }),
      })
      const { uuid } = (await created.json()) as RateTable
      vi.advanceTimersByTime(5000)
      const polled = (await (
        await sandbox.app.request(`/test/offerSearches/${uuid}`, { headers: headers() })
      ).json()) as RateTable
      expect(polled.pendingResponses).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('offer fields in the create and the polling response', () => {
  it('"`productVersions` ... Present in the create response", with createdAt and updatedAt', async () => {
    const created = await harness().createTable()
    expect(created.offers.length).toBeGreaterThan(0)
    for (const offer of created.offers) {
      expect(offer.productVersions?.length).toBeGreaterThan(0)
      expect(Date.parse(offer.createdAt ?? '')).not.toBeNaN()
      expect(Date.parse(offer.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(offer.createdAt ?? ''))
      expect(offer.impressionTrackingPixelUrls?.length).toBeGreaterThan(0)
    }
  })

  it('"`impressionTrackingPixelUrls` ... Present in the polling response"; create-only fields are not', async () => {
    const h = harness()
    const created = await h.createTable()
    h.advance(6000)
    const polled = rateTableSchema.parse(await (await h.poll(created.uuid)).json())
    expect(polled.offers.length).toBe(7)
    for (const offer of polled.offers) {
      expect(offerSchema.parse(offer)).toBeTruthy()
      expect(offer.impressionTrackingPixelUrls?.length).toBeGreaterThanOrEqual(2)
      expect(offer).not.toHaveProperty('productVersions')
      expect(offer).not.toHaveProperty('createdAt')
      expect(offer).not.toHaveProperty('updatedAt')
    }
    // The same offer keeps its uuid and its pixels between create and poll.
    const first = created.offers[0]
    expect(polled.offers.find((o) => o.uuid === first?.uuid)?.impressionTrackingPixelUrls).toEqual(
      first?.impressionTrackingPixelUrls,
    )
  })
})

describe('memory stays bounded', () => {
  it('forgets a rate table after its TTL (then 404)', async () => {
    const h = harness({ rateTableTtlMs: 60_000 })
    const table = await h.createTable()
    h.advance(59_000)
    expect((await h.poll(table.uuid)).status).toBe(200)
    h.advance(1000)
    expect((await h.poll(table.uuid)).status).toBe(404)
    expect(h.sandbox.rateTableCount()).toBe(0)
  })

  it('keeps at most maxRateTables, dropping the oldest first', async () => {
    const h = harness({ maxRateTables: 3 })
    const tables: RateTable[] = []
    for (let i = 0; i < 5; i++) tables.push(await h.createTable())
    expect(h.sandbox.rateTableCount()).toBe(3)
    h.advance(1000)
    expect((await h.poll((tables[0] as RateTable).uuid)).status).toBe(404)
    expect((await h.poll((tables[1] as RateTable).uuid)).status).toBe(404)
    expect((await h.poll((tables[4] as RateTable).uuid)).status).toBe(200)
  })
})

describe('unknown endpoints', () => {
  it('answers 404 with an error body listing the real paths, after authentication', async () => {
    const h = harness()
    const noSlash = await h.sandbox.app.request('/test/offerSearches', {
      method: 'POST',
      headers: headers(),
      body: '{}',
    })
    expect(noSlash.status).toBe(404)
    expect(await noSlash.text()).toContain('POST /offerSearches/')
    const anonymous = await h.sandbox.app.request('/test/nothing-here')
    expect(anonymous.status).toBe(401)
    const outside = await h.sandbox.app.request('/staging/offerSearches/', {
      method: 'POST',
      headers: headers(),
    })
    expect(outside.status).toBe(404)
  })
})
