/** @module Partners seen during a search: who answered (progress) and which disclaimers show. */
import { describe, expect, test } from 'vitest'
import type { PendingResponse } from '../../src/contract/offer-search.ts'
import { makePartner } from '../../src/playground/scenarios/fixtures.ts'
import { disclaimersToShow, mergeSeenPartners, progressOf } from '../../src/widget/seen-partners.ts'

const pending = (...partners: ReturnType<typeof makePartner>[]): PendingResponse[] =>
  partners.map((partner) => ({ partner, offerCatalogProductTypes: ['AutomobileInsurance'] }))

describe('partners seen during the search', () => {
  const a = makePartner({ name: 'A', disclaimer: 'A licence' })
  const b = makePartner({ name: 'B', disclaimer: '' })
  const c = makePartner({ name: 'C', disclaimer: '  ' })
  const d = makePartner({ name: 'D', disclaimer: 'A licence' })

  test('a partner that answered is kept; progress counts it as answered', () => {
    const first = mergeSeenPartners([], pending(a, b, c))
    const later = mergeSeenPartners(first, pending(c))
    expect(later.map((p) => p.brandName)).toEqual(['A', 'B', 'C'])
    expect(progressOf(later, pending(c))).toEqual({ answered: 2, total: 3 })
  })

  test('only populated disclaimers, each text once', () => {
    expect(disclaimersToShow(mergeSeenPartners([], pending(a, b, c, d))).map((x) => x.brandName)).toEqual([
      'A',
    ])
  })

  test('a later populated disclaimer replaces an empty one, never the reverse', () => {
    const seen = mergeSeenPartners([], pending(b))
    const filled = mergeSeenPartners(seen, pending({ ...b, disclaimer: 'B licence' }))
    expect(disclaimersToShow(filled).map((x) => x.text)).toEqual(['B licence'])
    const emptied = mergeSeenPartners(filled, pending({ ...b, disclaimer: '' }))
    expect(disclaimersToShow(emptied).map((x) => x.text)).toEqual(['B licence'])
  })
})
