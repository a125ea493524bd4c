/**
 * @module One bad item never hides the others: a rate table is read offer by offer and partner by partner
 * (docs/offer-search-api.md#one-bad-offer-never-hides-the-others).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { siftRateTable } from '../../src/contract/sift-rate-table.ts'
import { makeOffer, makePartner } from '../../src/playground/scenarios/fixtures.ts'
import { rateTableArb } from './support/arbitraries.ts'

const UUID = '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6'
const table = (offers: unknown[], pendingResponses: unknown[] = []) => ({
  uuid: UUID,
  leadUuid: '11111111-2222-4333-8444-555555555555',
  offers,
  pendingResponses,
  createdAt: '2026-03-01T12:00:00.000Z',
})
const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`

describe('siftRateTable', () => {
  it('drops an offer missing recommendationScore alone; a 600-character name is kept whole', () => {
    const { recommendationScore: _, ...broken } = makeOffer({ rank: 1, uuid: uuid(1) })
    const long = makeOffer({ rank: 2, uuid: uuid(2), productDisplayName: 'x'.repeat(600) })
    const good = makeOffer({ rank: 3, uuid: uuid(3) })
    const result = siftRateTable(table([broken, long, good]))
    if (!result.ok) throw new Error('expected ok')
    expect(result.table.offers.map((o) => o.uuid)).toEqual([uuid(2), uuid(3)])
    expect(result.table.offers[0]?.productDisplayName).toHaveLength(600)
    expect(result.dropped).toEqual([{ item: 'offer', reason: 'invalid_recommendationScore', id: uuid(1) }])
  })

  it('drops an offer whose rule-3 link is not http(s), and counts it', () => {
    const dead = makeOffer({ rank: 1, uuid: uuid(1), isMonetized: true, url: 'javascript:alert(1)' })
    const unmonetized = makeOffer({ rank: 2, uuid: uuid(2), isMonetized: false, unmonetizedUrl: 'ftp://x' })
    const good = makeOffer({ rank: 3, uuid: uuid(3), isMonetized: false, url: 'nonsense' })
    const result = siftRateTable(table([dead, unmonetized, good, 'not an object']))
    if (!result.ok) throw new Error('expected ok')
    expect(result.table.offers.map((o) => o.uuid)).toEqual([uuid(3)])
    expect(result.dropped.map((d) => d.reason)).toEqual(['non_http_link', 'non_http_link', 'invalid_item'])
  })

  it('keeps a bad pending partner pending with its bad fields blanked; the others are untouched', () => {
    const good = {
      partner: makePartner({ name: 'Good', uuid: uuid(1), disclaimer: 'Good Co.' }),
      offerCatalogProductTypes: [],
    }
    const bad = {
      partner: {
        ...makePartner({ name: 'Bad', uuid: uuid(2), disclaimer: 'Bad Co. License 1.' }),
        supportsPreSelect: 'yes',
      },
      offerCatalogProductTypes: ['AutomobileInsurance'],
    }
    const noDisclaimer = {
      partner: { ...makePartner({ name: 'Odd', uuid: uuid(3) }), disclaimer: 42 },
      offerCatalogProductTypes: [],
    }
    const result = siftRateTable(table([], [good, bad, noDisclaimer, {}]))
    if (!result.ok) throw new Error('expected ok')
    const partners = result.table.pendingResponses.map((p) => p.partner)
    expect(partners.map((p) => p.uuid)).toEqual([uuid(1), uuid(2), uuid(3), 'unreadable-partner-3'])
    expect(partners.map((p) => p.disclaimer)).toEqual(['Good Co.', 'Bad Co. License 1.', '', ''])
    expect(result.dropped.map((d) => d.reason)).toEqual([
      'invalid_supportsPreSelect',
      'invalid_disclaimer',
      'invalid_partner',
    ])
  })

  it('still refuses a table whose own fields break the contract', () => {
    expect(siftRateTable({ ...table([]), createdAt: 'yesterday' }).ok).toBe(false)
    expect(siftRateTable({ ...table([]), offers: {} }).ok).toBe(false)
  })

  it('property: a valid table passes with nothing dropped except offers without an http(s) link', () => {
    fc.assert(
      fc.property(rateTableArb, (value) => {
        const result = siftRateTable(value)
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(result.dropped.filter((d) => d.reason !== 'non_http_link')).toEqual([])
        expect(result.table.offers.length + result.dropped.length).toBe(value.offers.length)
      }),
    )
  })
})
