/**
 * @module createOfferSearch without React, on a fake clock against msw scenarios: requests start with the
 * first subscriber and stop with the last, one POST per search whoever holds it, the 1 s cadence and the
 * 15 s window, a snapshot that stays the same object until something changes, and callbacks once each.
 * (useOfferSearch.test.tsx checks the same search through the hook.)
 */
import { describe, expect, test, vi } from 'vitest'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { createOfferSearch, type OfferSearchOptions } from '../../src/widget/offer-search.ts'
import { createWidgetQueryClient } from '../../src/widget/query-client.ts'
import type { SearchData } from '../../src/widget/search-input.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const visitor: SearchData = { zipCode: '94107', dateOfBirth: '1990-04-17', currentIssuer: 'acme' }

function start(name: keyof typeof scenarios, options: Partial<OfferSearchOptions> = {}) {
  const bff = scenarios[name].create()
  server.use(...bff.handlers)
  const queryClient = options.queryClient ?? createWidgetQueryClient()
  const search = createOfferSearch({ endpoint: ENDPOINT, search: { ...visitor }, queryClient, ...options })
  const heard = vi.fn()
  const stop = search.subscribe(heard)
  return { bff, search, heard, stop, queryClient }
}

describe('requests follow subscribers', () => {
  test('nothing is sent before the first subscriber; its subscription sends one POST', async () => {
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    const search = createOfferSearch({ endpoint: ENDPOINT, search: visitor })
    await advance(3000)
    expect(bff.log.creates).toHaveLength(0)
    expect(search.getSnapshot().status).toBe('creating')
    const stop = search.subscribe(() => {})
    await advance()
    expect(bff.log.creates).toHaveLength(1)
    expect(search.getSnapshot().status).toBe('searching')
    stop()
  })

  test('after the last unsubscribe no poll goes out', async () => {
    const { bff, stop } = start('partnerNeverAnswers')
    await advance(3000)
    expect(bff.log.polls).toHaveLength(3)
    stop()
    await advance(10_000)
    expect(bff.log.polls).toHaveLength(3)
  })

  test('a second search on the same client with equal options picks the first up: no second POST', async () => {
    const { bff, stop, queryClient } = start('happyPath')
    await advance()
    stop()
    const again = createOfferSearch({ endpoint: ENDPOINT, search: { ...visitor }, queryClient })
    again.subscribe(() => {})
    await advance(3000)
    expect(bff.log.creates).toHaveLength(1)
    expect(again.getSnapshot().status).toBe('complete')
  })

  test('an equal search set again keeps its request; a new submission and retry() each send one', async () => {
    const { bff, search } = start('happyPath')
    await advance()
    search.setOptions({ endpoint: ENDPOINT, search: { ...visitor } })
    await advance(1000)
    expect(bff.log.creates).toHaveLength(1)
    search.setOptions({ endpoint: ENDPOINT, search: { ...visitor }, submission: 1 })
    await advance()
    expect(bff.log.creates).toHaveLength(2)
    search.retry()
    await advance()
    expect(bff.log.creates).toHaveLength(3)
  })

  test('getOptimisticResult shows what new options give without sending anything', async () => {
    const { bff, search } = start('happyPath', { search: null })
    await advance(2000)
    expect(search.getSnapshot().status).toBe('idle')
    expect(search.getOptimisticResult({ endpoint: ENDPOINT, search: visitor }).status).toBe('creating')
    await advance(2000)
    expect(bff.log.creates).toHaveLength(0)
    expect(search.getSnapshot().status).toBe('idle')
  })
})

describe('poll, window, status and arranged offers', () => {
  test('polls once a second from the create, stops when no partner is pending, offers in rank order', async () => {
    const { bff, search } = start('offersOverTime')
    await advance(999)
    expect(bff.log.polls).toHaveLength(0)
    await advance(1)
    expect(bff.log.polls).toHaveLength(1)
    await advance(1000)
    expect(search.getSnapshot().progress).toEqual({ answered: 1, total: 5 })
    await advance(10_000)
    const { status, offers, incomplete } = search.getSnapshot()
    expect(status).toBe('complete')
    expect(incomplete).toBe(false)
    expect(offers.map((offer) => offer.rank)).toEqual([1, 2, 3, 4, 5])
    const polls = bff.log.polls.length
    await advance(20_000)
    expect(bff.log.polls).toHaveLength(polls)
  })

  test('the 15 s window: searching at 14 s, complete and incomplete at 15 s, no poll after', async () => {
    const { bff, search } = start('partnerNeverAnswers')
    await advance(14_000)
    expect(search.getSnapshot().status).toBe('searching')
    await advance(1000)
    expect(search.getSnapshot()).toMatchObject({ status: 'complete', incomplete: true })
    expect(search.getSnapshot().offers).toHaveLength(2)
    await advance(30_000)
    expect(bff.log.polls).toHaveLength(14)
  })

  test('persistent 5xx ends in an error once the window closes', async () => {
    const { search } = start('persistentServerError')
    await advance(14_000)
    expect(search.getSnapshot().status).toBe('searching')
    await advance(1000)
    expect(search.getSnapshot().status).toBe('error')
    expect(search.getSnapshot().error?.kind).toBe('server')
  })

  test('an attached search with its rate table shows its offers before any request', async () => {
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    const created = start('happyPath', { search: visitor })
    await advance()
    const rateTable = created.search.getSnapshot().rateTable
    expect(rateTable).toBeDefined()
    const polls = bff.log.polls.length
    const attached = createOfferSearch({
      endpoint: ENDPOINT,
      attach: { uuid: 'unknown-to-this-bff', accessToken: 'token-x', rateTable },
    })
    expect(attached.getSnapshot().status).toBe('searching')
    expect(attached.getSnapshot().search?.uuid).toBe('unknown-to-this-bff')
    expect(bff.log.polls).toHaveLength(polls)
  })
})

describe('snapshot and listeners', () => {
  test('the snapshot is the same object until something changes, and listeners hear each change', async () => {
    const { search, heard } = start('happyPath')
    await advance()
    const first = search.getSnapshot()
    expect(search.getSnapshot()).toBe(first)
    const calls = heard.mock.calls.length
    expect(calls).toBeGreaterThan(0)
    // The 1 s poll finds what the create found (no partner answered yet): nothing changed.
    await advance(1000)
    expect(search.getSnapshot()).toBe(first)
    // The 2 s poll finds the partner that answered at 1.2 s.
    await advance(1000)
    expect(search.getSnapshot()).not.toBe(first)
    expect(search.getSnapshot().progress).toEqual({ answered: 1, total: 3 })
    expect(heard.mock.calls.length).toBeGreaterThan(calls)
    await advance(5000)
    const done = search.getSnapshot()
    expect(done.status).toBe('complete')
    // Setting equal options again changes nothing a subscriber compares.
    search.setOptions({ endpoint: ENDPOINT, search: { ...visitor } })
    expect(search.getSnapshot()).toBe(done)
    expect(search.getSnapshot().offers).toBe(done.offers)
  })

  test('an offer unchanged since the last poll is the same object (OfferCard renders it again only when it changed)', async () => {
    const { search } = start('offersOverTime')
    await advance(2000)
    const [first] = search.getSnapshot().offers
    expect(first).toBeDefined()
    await advance(4000)
    const later = search.getSnapshot().offers
    expect(later.length).toBeGreaterThan(1)
    expect(later.find((offer) => offer.uuid === first?.uuid)).toBe(first)
  })

  test('report() calls onSearchCreated and onComplete once each, however often it is called', async () => {
    const onSearchCreated = vi.fn()
    const onComplete = vi.fn()
    const { search } = start('happyPath', { onSearchCreated, onComplete })
    search.report()
    expect(onSearchCreated).not.toHaveBeenCalled()
    await advance()
    search.report()
    search.report()
    expect(onSearchCreated).toHaveBeenCalledTimes(1)
    expect(onSearchCreated).toHaveBeenCalledWith(search.getSnapshot().search)
    expect(onComplete).not.toHaveBeenCalled()
    await advance(5000)
    search.report()
    search.report()
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete.mock.calls[0]?.[0]).toMatchObject({ offerCount: 4, incomplete: false })
  })

  test('report() calls onError once for an error', async () => {
    const onError = vi.fn()
    const { search } = start('persistentServerError', { onError })
    await advance(15_000)
    search.report()
    search.report()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[0]).toBe(search.getSnapshot().error)
  })
})
