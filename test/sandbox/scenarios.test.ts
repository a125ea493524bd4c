import { describe, expect, it } from 'vitest'
import { offerSchema, type RateTable, rateTableSchema } from '../../src/contract/offer-search.ts'
import {
  DEFAULT_SCENARIO,
  SCENARIO_ZIP_PREFIX,
  SCENARIOS,
  seededRandom,
  zipOfScenario,
} from '../../src/sandbox/index.ts'
import { carriesFigure } from '../../src/widget/copy-figures.ts'
import { harness, validBody } from './support/sandbox-tests.ts'

/** Polls once a second until complete or `maxMs`, recording every status. */
async function runToEnd(h: ReturnType<typeof harness>, uuid: string, maxMs = 40_000) {
  const statuses: number[] = []
  const tables: RateTable[] = []
  for (let t = 0; t < maxMs; t += 1000) {
    h.advance(1000)
    const response = await h.poll(uuid)
    statuses.push(response.status)
    if (response.status === 200) {
      const table = rateTableSchema.parse(await response.json())
      tables.push(table)
      if (table.pendingResponses.length === 0) break
    } else {
      await response.body?.cancel()
    }
  }
  return { statuses, tables, last: tables.at(-1) }
}

describe('scenario table', () => {
  it('every scenario ZIP begins with 000, which no real ZIP does, and is unique', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(9)
    for (const s of SCENARIOS) expect(s.zip.startsWith(SCENARIO_ZIP_PREFIX), s.zip).toBe(true)
    expect(new Set(SCENARIOS.map((s) => s.zip)).size).toBe(SCENARIOS.length)
    expect(new Set(SCENARIOS.map((s) => s.name)).size).toBe(SCENARIOS.length)
  })

  for (const scenario of SCENARIOS) {
    it(`${scenario.zip} ${scenario.name}: ends with ${scenario.offerCount} offers, ${scenario.activeOfferCount} active, as the table says`, async () => {
      const h = harness({ maxRateTables: 5 })
      const created = await h.createTable(scenario.zip)
      h.advance(scenario.completesAfterMs + 20_000)
      const response = await h.poll(created.uuid)
      // Persistent 5xx never lets a poll through; its offers are checked through the create response.
      if (scenario.name === 'persistent-5xx') {
        expect(response.status).toBeGreaterThanOrEqual(500)
        return
      }
      const table = rateTableSchema.parse(await response.json())
      expect(table.pendingResponses).toEqual([])
      expect(table.offers.length).toBe(scenario.offerCount)
      expect(table.offers.filter((o) => o.status === 'active').length).toBe(scenario.activeOfferCount)
      for (const offer of table.offers) offerSchema.parse(offer)
    })
  }

  it('reads the ZIP under either spelling (docs/offer-search-api.md: "zipcode" in the sample, "zipCode" in the table)', async () => {
    const h = harness()
    for (const key of ['zipCode', 'zipcode']) {
      const body = { ...validBody(), personalInformation: { [key]: zipOfScenario('no-offers') } }
      const table = (await (await h.create(body)).json()) as RateTable
      h.advance(3000)
      const final = (await (await h.poll(table.uuid)).json()) as RateTable
      expect(final.offers, key).toEqual([])
      expect(final.pendingResponses, key).toEqual([])
    }
  })

  it('gives every other ZIP, a ZIP+4 of none, and no ZIP the default scenario', async () => {
    const h = harness()
    for (const zip of ['94107', '10001-1234', '00099', undefined]) {
      const table = await h.createTable(zip)
      h.advance(DEFAULT_SCENARIO.partners.at(-1)?.delayMs ?? 0)
      const final = (await (await h.poll(table.uuid)).json()) as RateTable
      expect(final.offers.length, String(zip)).toBe(7)
    }
  })

  it('uses the first five digits of a ZIP+4', async () => {
    const h = harness()
    const table = await h.createTable(`${zipOfScenario('no-offers')}-1234`)
    h.advance(3000)
    expect(((await (await h.poll(table.uuid)).json()) as RateTable).offers).toEqual([])
  })
})

describe('default scenario offers look like real ones', () => {
  it('ranks out of array order, non-active, monetized and unmonetized, several pixels, disclaimers, logos', async () => {
    const h = harness()
    const created = await h.createTable()
    const disclaimers = created.pendingResponses.map((p) => p.partner.disclaimer)
    const { last } = await runToEnd(h, created.uuid)
    const offers = last?.offers ?? []
    const ranks = offers.map((o) => o.rank)
    expect(ranks).not.toEqual([...ranks].sort((a, b) => a - b))
    expect(new Set(ranks).size).toBe(ranks.length)
    expect(offers.map((o) => o.status)).toContainEqual(expect.not.stringMatching(/^active$/))
    expect(new Set(offers.map((o) => o.isMonetized))).toEqual(new Set([true, false]))
    expect(offers.filter((o) => (o.impressionTrackingPixelUrls?.length ?? 0) < 2).map((o) => o.uuid)).toEqual(
      [],
    )
    expect(disclaimers).toContain('')
    expect(Math.max(...disclaimers.map((d) => d.length))).toBeGreaterThan(50)
    for (const offer of offers) {
      expect(offer.financialInstitutionImageUrl).toMatch(
        /^http:\/\/localhost\/logos\/carriers\/[a-z-]+\.svg$/,
      )
      expect(offer.url).not.toBe(offer.unmonetizedUrl)
      expect(offer.productType).toBe('AutomobileInsurance')
      expect(offer.descriptionPoints.length).toBeGreaterThan(0)
    }
    // docs/offer-search-api.md: "`recommendationScore` ... not used for auto insurance ranking; use `rank`" — the two disagree.
    const byScore = [...offers]
      .sort((a, b) => b.recommendationScore - a.recommendationScore)
      .map((o) => o.rank)
    expect(byScore).not.toEqual([...ranks].sort((a, b) => a - b))
  })

  it('the same seed gives the same uuids and copy; another seed does not', async () => {
    const [a, b] = [await harness().createTable(), await harness().createTable()]
    expect(a).toEqual(b)
    const c = await harness({ random: seededRandom(7) }).createTable()
    expect(c.uuid).not.toBe(a.uuid)
  })
})

describe('scenario behaviours', () => {
  it('no-offers: "A search can complete with no offers"', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('no-offers'))
    expect(created.pendingResponses.length).toBe(2)
    const { last } = await runToEnd(h, created.uuid)
    expect(last?.offers).toEqual([])
    expect(last?.pendingResponses).toEqual([])
  })

  it('slow-partner: a partner still pending after the 15 s polling window', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('slow-partner'))
    const { tables } = await runToEnd(h, created.uuid, 15_000)
    const at15 = tables.at(-1)
    expect(at15?.pendingResponses.map((p) => p.partner.brandName)).toEqual(['Tortoise'])
    expect(at15?.offers.length).toBe(7)
  })

  it('transient-5xx: polls fail with 503 / 500 in the first 3 s, then recover', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('transient-5xx'))
    const { statuses, last } = await runToEnd(h, created.uuid)
    expect(statuses.slice(0, 2)).toEqual([503, 500])
    expect(new Set(statuses.slice(2))).toEqual(new Set([200]))
    expect(last?.pendingResponses).toEqual([])
  })

  it('persistent-5xx: the create succeeds, every poll is a 5xx long past the window', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('persistent-5xx'))
    const { statuses } = await runToEnd(h, created.uuid, 20_000)
    expect(statuses.length).toBe(20)
    expect(statuses.filter((s) => s !== 503 && s !== 500)).toEqual([])
  })

  it('rate-limited: 429 with Retry-After for the first 4 s, then recovery', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('rate-limited'))
    h.advance(1000)
    const limited = await h.poll(created.uuid)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    const { statuses } = await runToEnd(h, created.uuid)
    expect(statuses.slice(0, 2)).toEqual([429, 429])
    expect(new Set(statuses.slice(2))).toEqual(new Set([200]))
  })

  it('non-active: exactly one offer is active (docs/offer-search-api.md: "Only offers with status `active` are displayed")', async () => {
    const h = harness()
    const { last } = await runToEnd(h, (await h.createTable(zipOfScenario('non-active'))).uuid)
    expect(last?.offers.filter((o) => o.status === 'active').length).toBe(1)
    expect(new Set(last?.offers.map((o) => o.status)).size).toBeGreaterThanOrEqual(4)
  })

  it('long-copy: very long headline, bullets, names and disclaimer, with prices at the end', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('long-copy'))
    const { last } = await runToEnd(h, created.uuid)
    for (const offer of last?.offers ?? []) {
      expect(offer.headline.length).toBeGreaterThan(200)
      expect(offer.descriptionPoints.length).toBeGreaterThanOrEqual(8)
      expect(offer.financialInstitutionDisplayName.length).toBeGreaterThan(80)
      // A price where a clamp would cut it: at the end of the headline, and in a bullet past the first three.
      expect(offer.headline).toMatch(/\$\d+\/mo$/)
      expect(offer.descriptionPoints.slice(3).some(carriesFigure)).toBe(true)
    }
    expect(Math.max(...created.pendingResponses.map((p) => p.partner.disclaimer.length))).toBeGreaterThan(
      2000,
    )
  })

  it('disclaimers: pending partners carry several distinct populated disclaimers and an empty one', async () => {
    const h = harness()
    const created = await h.createTable(zipOfScenario('disclaimers'))
    const disclaimers = created.pendingResponses.map((p) => p.partner.disclaimer)
    expect(new Set(disclaimers.filter((d) => d !== '')).size).toBe(4)
    expect(disclaimers.filter((d) => d === '').length).toBe(1)
    expect(disclaimers).toContainEqual(expect.stringContaining('\n'))
  })

  it('unmonetized: every offer has isMonetized false', async () => {
    const h = harness()
    const { last } = await runToEnd(h, (await h.createTable(zipOfScenario('unmonetized'))).uuid)
    expect(last?.offers.length).toBeGreaterThan(0)
    expect(last?.offers.filter((o) => o.isMonetized !== false).map((o) => o.uuid)).toEqual([])
  })
})
