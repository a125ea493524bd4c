/** @module Partners seen during a search: who answered (progress) and which disclaimers show. */
import { describe, expect, test } from 'vitest'
import type { PendingResponse } from '../../src/contract/offer-search.ts'
import { makePartner } from '../../src/playground/scenarios/fixtures.ts'
import {
  disclaimersOnScreen,
  disclaimersToShow,
  mergeSeenPartners,
  progressOf,
} from '../../src/widget/seen-partners.ts'

const pendingOf = (...partners: ReturnType<typeof makePartner>[]): PendingResponse[] =>
  partners.map((partner) => ({ partner, offerCatalogProductTypes: ['AutomobileInsurance'] }))
/** A rate table step with these partners pending and no offers. */
const pending = (...partners: ReturnType<typeof makePartner>[]) => ({
  pending: pendingOf(...partners),
  offerUuids: [],
})

describe('partners seen during the search', () => {
  const a = makePartner({ name: 'A', disclaimer: 'A licence' })
  const b = makePartner({ name: 'B', disclaimer: '' })
  const c = makePartner({ name: 'C', disclaimer: '  ' })
  const d = makePartner({ name: 'D', disclaimer: 'A licence' })

  test('a partner that answered is kept; progress counts it as answered', () => {
    const first = mergeSeenPartners([], pending(a, b, c))
    const later = mergeSeenPartners(first, pending(c))
    expect(later.map((p) => p.brandName)).toEqual(['A', 'B', 'C'])
    expect(progressOf(later, pendingOf(c))).toEqual({ answered: 2, total: 3 })
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

  test('offers that appear as a partner leaves pending are its own; several leaving share them', () => {
    const start = { pending: pendingOf(a, b, d), offerUuids: ['o0'] }
    const aAnswered = { pending: pendingOf(b, d), offerUuids: ['o0', 'o1', 'o2'] }
    const bothAnswered = { pending: [], offerUuids: ['o0', 'o1', 'o2', 'o3'] }
    let seen = mergeSeenPartners([], start)
    seen = mergeSeenPartners(seen, aAnswered, start)
    seen = mergeSeenPartners(seen, bothAnswered, aAnswered)
    expect(Object.fromEntries(seen.map((p) => [p.brandName, p.offerUuids]))).toEqual({
      A: ['o1', 'o2'],
      B: ['o3'],
      D: ['o3'],
    })
    // A and D carry the same text: shown once, with the offers of both.
    expect(disclaimersToShow(seen)).toEqual([
      expect.objectContaining({ brandName: 'A', text: 'A licence', offerUuids: ['o1', 'o2', 'o3'] }),
    ])
  })

  test('a disclaimer shows only while one of its offers is on screen, none with nothing on screen', () => {
    const start = { pending: pendingOf(a, { ...b, disclaimer: 'B licence' }), offerUuids: [] }
    const aAnswered = { pending: pendingOf({ ...b, disclaimer: 'B licence' }), offerUuids: ['o1'] }
    const done = { pending: [], offerUuids: ['o1', 'o2'] }
    let seen = mergeSeenPartners([], start)
    seen = mergeSeenPartners(seen, aAnswered, start)
    seen = mergeSeenPartners(seen, done, aAnswered)
    const all = disclaimersToShow(seen)
    expect(disclaimersOnScreen(all, ['o1']).map((x) => x.text)).toEqual(['A licence'])
    expect(disclaimersOnScreen(all, ['o2', 'o1']).map((x) => x.text)).toEqual(['A licence', 'B licence'])
    expect(disclaimersOnScreen(all, [])).toEqual([])
    // An offer present in the first table came from a partner never seen pending: no disclaimer is known.
    expect(disclaimersOnScreen(all, ['o0'])).toEqual([])
  })
})
