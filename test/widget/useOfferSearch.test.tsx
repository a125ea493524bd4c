/**
 * @module useOfferSearch against msw scenarios on a fake clock: exactly one POST, the polling procedure
 * of docs/offer-search-api.md, retries, the 15 s window, attach mode and the second-look source.
 */
import { QueryClient } from '@tanstack/react-query'
import { renderHook } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { act } from 'react'
import { describe, expect, test, vi } from 'vitest'
import { ACCESS_TOKEN_HEADER, WIDGET_HEADER } from '../../src/contract/bff.ts'
import { SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { createWidgetQueryClient } from '../../src/widget/query-client.ts'
import type { SearchData } from '../../src/widget/search-input.ts'
import { type UseOfferSearchOptions, useOfferSearch } from '../../src/widget/useOfferSearch.ts'
import { WIDGET_VERSION } from '../../src/widget/version.ts'
import { advance, countRequests, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const visitor: SearchData = { zipCode: '94107', dateOfBirth: '1990-04-17', currentIssuer: 'acme' }

function run(name: keyof typeof scenarios, options: Partial<UseOfferSearchOptions> = {}, strict = false) {
  const bff = scenarios[name].create()
  server.use(...bff.handlers)
  const queryClient = options.queryClient ?? createWidgetQueryClient()
  const hook = renderHook(
    (props: Partial<UseOfferSearchOptions>) => useOfferSearch({ ...props, queryClient }),
    {
      initialProps: { endpoint: ENDPOINT, search: { ...visitor }, ...options },
      reactStrictMode: strict,
    },
  )
  return { bff, hook, queryClient }
}

/** Every poll answered with this error (the create keeps the scenario's answer); listed first, it wins. */
const pollsAnswer = (status: number, code: string) =>
  http.get('*/api/offer-searches/:uuid', () => HttpResponse.json({ code, message: code }, { status }))

describe('exactly one POST per submitted search', () => {
  test('under StrictMode', async () => {
    const { bff, hook } = run('happyPath', {}, true)
    await advance()
    expect(hook.result.current.status).toBe('searching')
    expect(bff.log.creates).toHaveLength(1)
  })

  test('on re-renders with an equal search object', async () => {
    const { bff, hook } = run('happyPath')
    await advance()
    hook.rerender({ endpoint: ENDPOINT, search: { ...visitor } })
    hook.rerender({ endpoint: ENDPOINT, search: { ...visitor } })
    await advance(1000)
    expect(bff.log.creates).toHaveLength(1)
  })

  test('on a remount inside the same widget instance (same QueryClient), even mid-flight', async () => {
    const { bff, hook, queryClient } = run('happyPath')
    hook.unmount() // before the POST's answer arrived
    await advance()
    const again = renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor, queryClient }))
    await advance()
    expect(again.result.current.status).toBe('searching')
    again.unmount()
    renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor, queryClient }))
    await advance(3000)
    expect(bff.log.creates).toHaveLength(1)
  })

  test('on a network failure: the POST is not retried', async () => {
    const requests = countRequests()
    server.use(http.post('*/api/offer-searches', () => HttpResponse.error()))
    const hook = renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor }))
    await advance(10_000)
    expect(hook.result.current.status).toBe('error')
    expect(hook.result.current.error?.kind).toBe('network')
    expect(requests.count('POST', '/api/offer-searches')).toBe(1)
  })

  test('on a 503 or 429: the POST is not retried either', async () => {
    const requests = countRequests()
    server.use(
      http.post('*/api/offer-searches', () =>
        HttpResponse.json(
          { code: 'rate_limited', message: 'slow' },
          { status: 429, headers: { 'Retry-After': '1' } },
        ),
      ),
    )
    const hook = renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor }))
    await advance(10_000)
    expect(hook.result.current.error?.kind).toBe('rate_limited')
    expect(requests.count('POST', '/api/offer-searches')).toBe(1)
  })

  test('a new submission (or retry()) is a new POST', async () => {
    const { bff, hook } = run('happyPath')
    await advance()
    hook.rerender({ endpoint: ENDPOINT, search: { ...visitor }, submission: 1 })
    await advance()
    expect(bff.log.creates).toHaveLength(2)
    act(() => hook.result.current.retry())
    await advance()
    expect(bff.log.creates).toHaveLength(3)
  })

  test('nothing is sent while there is nothing to search for', async () => {
    const requests = countRequests()
    const hook = renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: null }))
    await advance(5000)
    expect(hook.result.current.status).toBe('idle')
    expect(requests.count('POST', '/api/offer-searches')).toBe(0)
  })
})

describe('requests', () => {
  test('every request carries X-Offer-Widget with the version; polls carry the access token', async () => {
    const { bff } = run('happyPath')
    await advance(1000)
    expect(bff.log.creates[0]?.headers.get(WIDGET_HEADER)).toBe(WIDGET_VERSION)
    expect(bff.log.polls.length).toBeGreaterThan(0)
    for (const poll of bff.log.polls) {
      expect(poll.headers.get(WIDGET_HEADER)).toBe(WIDGET_VERSION)
      expect(poll.headers.get(ACCESS_TOKEN_HEADER)).toMatch(/^token-/)
    }
  })

  test('the body carries the search data and never sessionInformation', async () => {
    const { bff } = run('happyPath', {
      search: {
        ...visitor,
        numberOfVehicles: 2,
        isHomeOwner: true,
        isMilitary: false,
        clientTags: { subId: ['x'] },
      },
    })
    await advance()
    expect(bff.log.creates[0]?.body).toEqual({
      productTypes: ['AutomobileInsurance'],
      autoInsuranceInformation: {
        currentIssuer: 'acme',
        numberOfVehicles: 2,
        policyHolderInformation: { isHomeOwner: true, isMilitary: false },
      },
      personalInformation: { zipCode: '94107', dateOfBirth: '1990-04-17' },
      clientTags: { subId: ['x'] },
    })
  })
})

describe('polling (docs/offer-search-api.md: "after the POST, poll once per second for up to 15 seconds")', () => {
  test('polls once per second, not before the first second, and stops when no partner is pending', async () => {
    const { bff, hook } = run('happyPath')
    await advance()
    expect(bff.log.polls).toHaveLength(0)
    await advance(999)
    expect(bff.log.polls).toHaveLength(0)
    await advance(1)
    expect(bff.log.polls).toHaveLength(1)
    await advance(2000)
    // Partners answer at 1.2, 2.1 and 2.9 s: the 3 s poll sees none pending.
    expect(bff.log.polls).toHaveLength(3)
    expect(hook.result.current.status).toBe('complete')
    await advance(30_000)
    expect(bff.log.polls).toHaveLength(3)
    const gaps = bff.log.polls.slice(1).map((p, i) => p.at - (bff.log.polls[i]?.at ?? 0))
    expect(gaps).toHaveLength(2)
    expect(gaps.filter((gap) => gap < 1000)).toEqual([])
  })

  test('offers appear as they arrive and progress counts answered partners', async () => {
    const { hook } = run('offersOverTime')
    await advance()
    expect(hook.result.current.progress).toEqual({ answered: 0, total: 5 })
    expect(hook.result.current.offers).toHaveLength(0)
    await advance(2000)
    expect(hook.result.current.progress).toEqual({ answered: 1, total: 5 })
    expect(hook.result.current.offers).toHaveLength(1)
    await advance(4000)
    expect(hook.result.current.progress).toEqual({ answered: 3, total: 5 })
    expect(hook.result.current.offers).toHaveLength(3)
    await advance(6000)
    expect(hook.result.current.status).toBe('complete')
    expect(hook.result.current.offers.map((o) => o.rank)).toEqual([1, 2, 3, 4, 5])
  })

  test('past 15 s with a partner still pending: keep what arrived, stop for good', async () => {
    const onComplete = vi.fn()
    const { bff, hook } = run('partnerNeverAnswers', { onComplete })
    await advance(14_000)
    expect(hook.result.current.status).toBe('searching')
    expect(bff.log.polls).toHaveLength(14)
    await advance(1000)
    expect(hook.result.current.status).toBe('complete')
    expect(hook.result.current.incomplete).toBe(true)
    expect(hook.result.current.offers).toHaveLength(2)
    await advance(60_000)
    expect(bff.log.polls).toHaveLength(14)
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete.mock.calls[0]?.[0]).toMatchObject({ offerCount: 2, incomplete: true })
  })

  test('a 429 waits Retry-After (seconds, then backoff, then an HTTP-date)', async () => {
    const { bff, hook } = run('rateLimitStorm')
    await advance(1000) // poll 1: 429, Retry-After: 2
    expect(bff.log.polls).toHaveLength(1)
    await advance(1999)
    expect(bff.log.polls).toHaveLength(1)
    await advance(10_000)
    const at = bff.log.polls.map((p) => p.at)
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0))
    expect(gaps[0]).toBe(2000) // Retry-After: 2
    expect(gaps[1]).toBe(2000) // no Retry-After on the 2nd failure: backoff 2 s
    // An HTTP-date one second ahead, whole seconds only: at most 1 s, never before that date.
    expect(gaps[2]).toBeGreaterThan(0)
    expect(gaps[2]).toBeLessThanOrEqual(1000)
    expect(gaps[3]).toBe(4000) // 4th failure, no Retry-After: backoff capped at 4 s
    expect(bff.log.polls).toHaveLength(5)
    expect(hook.result.current.status).toBe('complete')
    expect(hook.result.current.offers).toHaveLength(2)
  })

  test('backoff without Retry-After is 1, 2, 4 s', async () => {
    server.use(pollsAnswer(429, 'rate_limited'), ...scenarios.partnerNeverAnswers.create().handlers)
    const requests = countRequests()
    renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor }))
    const polls = () => requests.count('GET', /offer-searches\/[^/]+$/)
    await advance(1000)
    expect(polls()).toBe(1)
    await advance(1000)
    expect(polls()).toBe(2)
    await advance(2000)
    expect(polls()).toBe(3)
    await advance(3999)
    expect(polls()).toBe(3)
    await advance(1)
    expect(polls()).toBe(4)
  })

  test('a single 5xx never ends a search', async () => {
    const onError = vi.fn()
    const { hook } = run('serverErrorThenRecovery', { onError })
    await advance(2000)
    expect(hook.result.current.status).toBe('searching')
    await advance(4000)
    expect(hook.result.current.status).toBe('complete')
    expect(hook.result.current.offers).toHaveLength(2)
    expect(onError).not.toHaveBeenCalled()
  })

  test('persistent 5xx: still searching at 14 s, a graceful error after 15 s, onError once', async () => {
    const onError = vi.fn()
    const { bff, hook } = run('persistentServerError', { onError })
    await advance(14_000)
    expect(hook.result.current.status).toBe('searching')
    await advance(1000)
    expect(hook.result.current.status).toBe('error')
    expect(hook.result.current.error?.kind).toBe('server')
    const polls = bff.log.polls.length
    await advance(30_000)
    expect(bff.log.polls).toHaveLength(polls)
    expect(polls).toBeGreaterThan(0)
    const lastAllowed = (bff.log.polls[0]?.at ?? 0) + 14_000
    expect(bff.log.polls.filter((p) => p.at >= lastAllowed).map((p) => p.at)).toEqual([])
    expect(onError).toHaveBeenCalledTimes(1)
    act(() => hook.result.current.retry())
    await advance()
    expect(bff.log.creates).toHaveLength(2)
    expect(hook.result.current.status).toBe('searching')
  })

  test('a 404 ends the search at once (nothing to retry)', async () => {
    server.use(pollsAnswer(404, 'not_found'), ...scenarios.happyPath.create().handlers)
    const hook = renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor }))
    await advance(1000)
    expect(hook.result.current.status).toBe('error')
    expect(hook.result.current.error?.kind).toBe('not_found')
  })

  test('a response that fails validation is an error, not a crash', async () => {
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    server.use(http.get('*/api/offer-searches/:uuid', () => HttpResponse.json({ offers: 'nope' })))
    const hook = renderHook(() => useOfferSearch({ endpoint: ENDPOINT, search: visitor }))
    await advance(1000)
    expect(hook.result.current.error?.kind).toBe('invalid_response')
  })
})

describe('disclaimers (docs/offer-search-api.md rule 5: "Show a partner\'s `disclaimer` when it is populated")', () => {
  test('kept after the partner answered, empty ones omitted, each once', async () => {
    const { hook } = run('disclaimers')
    await advance()
    const texts = () => hook.result.current.disclaimers.map((d) => d.text)
    expect(texts()).toHaveLength(3)
    await advance(5000)
    expect(hook.result.current.rateTable?.pendingResponses).toHaveLength(0)
    expect(texts()).toEqual([
      'Acme Mutual Insurance Company. CA License #0A12345.',
      expect.stringMatching(/^Cardinal Auto Insurance Agency/),
      '<b>Delta</b> Direct, licensed producer.',
    ])
  })
})

describe('sources and attachment', () => {
  test("source 'second-look' submits the lead, not the search data, and polls the second-look routes", async () => {
    const { bff, hook } = run('happyPath', { source: 'second-look', lead: SAMPLE_LEAD })
    await advance(3000)
    expect(bff.log.creates.map((c) => c.source)).toEqual(['/api/second-look'])
    expect(bff.log.creates[0]?.body).toEqual(SAMPLE_LEAD)
    expect(hook.result.current.status).toBe('complete')
    expect(hook.result.current.search?.source).toBe('second-look')
  })

  test("source 'second-look' without a lead sends nothing and waits", async () => {
    const { bff, hook } = run('happyPath', { source: 'second-look' })
    await advance(3000)
    expect(bff.log.creates).toHaveLength(0)
    expect(hook.result.current.status).toBe('idle')
  })

  test('attaching to a search created on the server sends no POST and polls with its token', async () => {
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    const attach = bff.seedSearch()
    const onSearchCreated = vi.fn()
    const hook = renderHook(
      () => useOfferSearch({ endpoint: ENDPOINT, attach, search: visitor, onSearchCreated }),
      { reactStrictMode: true },
    )
    await advance()
    expect(bff.log.creates).toHaveLength(0)
    expect(bff.log.polls[0]?.headers.get(ACCESS_TOKEN_HEADER)).toBe(attach.accessToken)
    await advance(3000)
    expect(hook.result.current.status).toBe('complete')
    expect(onSearchCreated).toHaveBeenCalledTimes(1)
    expect(onSearchCreated).toHaveBeenCalledWith({ uuid: attach.uuid, source: 'offer-search' })
  })
})

describe('callbacks', () => {
  test('onSearchCreated and onComplete once each under StrictMode and re-renders', async () => {
    const onSearchCreated = vi.fn()
    const onComplete = vi.fn()
    const { hook } = run('happyPath', { onSearchCreated, onComplete }, true)
    await advance(5000)
    hook.rerender({ endpoint: ENDPOINT, search: visitor, onSearchCreated, onComplete })
    await advance(1000)
    expect(onSearchCreated).toHaveBeenCalledTimes(1)
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete.mock.calls[0]?.[0]).toMatchObject({ offerCount: 4, incomplete: false })
  })

  test('the private client is used, not a host one', async () => {
    const host = new QueryClient()
    const { queryClient } = run('happyPath')
    await advance()
    expect(host.getQueryCache().getAll()).toHaveLength(0)
    expect(queryClient.getQueryCache().getAll().length).toBeGreaterThan(0)
  })
})
