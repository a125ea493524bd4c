/**
 * Placements on the BFF (docs/placements.md): the placement reaches the upstream as one `clientTags.subId` tag
 * and never as a field; each search's creation, completion (the first final rate table served) and the
 * widget's measure are handed to the ledger off the response path, once each; a ledger that refuses them
 * fails no search or poll; the measure route's token, body, repeat, served-offer and limit rules. Time is
 * faked (Date only: token expiry, the 1 s poll coalescing and the rate limiter's windows read it; sockets keep
 * real timers).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BffOptions } from '../../src/bff/create-bff.ts'
import { MEASURE_ROUTE, MEASURES_PER_SEARCH } from '../../src/bff/measure-limits.ts'
import { ACCESS_TOKEN_HEADER, createdSearchSchema } from '../../src/contract/bff.ts'
import { LedgerError, type SearchEvent } from '../../src/ledger/index.ts'
import { SEARCH_EVENTS_OVERFLOW } from '../../src/ledger/search-event-queue.ts'
import { makeOffer } from '../../src/playground/scenarios/fixtures.ts'
import { CREATED_UUID, fakeHarness } from './support/fake-harness.ts'
import { rateTable } from './support/fake-upstream.ts'
import { postJson, sandboxHarness, UA, WIDGET } from './support/harness.ts'

const OTHER_UUID = '9e8d7c6b-5a49-4382-9716-a5b4c3d2e1f0'
/** The offers the fake upstream's rate tables hold unless a test says otherwise. */
const SERVED = ['o1', 'o2', 'o3', 'offer-1']

/** A rate table of `uuid` with `pending` partners still out and these offers. */
function tableWith(uuid: string, pending: number, offerIds: readonly string[] = SERVED) {
  return {
    ...rateTable(uuid, pending),
    offers: offerIds.map((id, i) => makeOffer({ rank: i + 1, uuid: id })),
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.parse('2026-03-02T10:00:00.000Z'))
})
afterEach(() => {
  vi.useRealTimers()
})

/**
 * A BFF whose search events go to `events` (or to a sink that fails), with a fake upstream whose rate tables
 * hold the offers `SERVED`.
 */
async function harness(
  sink?: (events: readonly SearchEvent[]) => Promise<void>,
  {
    env = {},
    options = {},
    peer,
  }: { env?: Record<string, string>; options?: BffOptions; peer?: () => string } = {},
) {
  const events: SearchEvent[] = []
  const h = await fakeHarness(
    env,
    {
      searchEvents:
        sink ??
        (async (batch) => {
          events.push(...batch)
        }),
      ...options,
    },
    peer,
  )
  h.upstream.fallback = (request) =>
    request.method === 'POST'
      ? { status: 201, body: tableWith(CREATED_UUID, 1) }
      : { status: 200, body: tableWith(request.url.split('/').pop() ?? '', 1) }
  const create = async (body: unknown) => {
    const res = await h.request('/api/offer-searches', postJson(body))
    return { res, json: res.status === 201 ? createdSearchSchema.parse(await res.json()) : await res.json() }
  }
  const measure = (uuid: string, body: unknown, token?: string) =>
    h.request(
      `/api/offer-searches/${uuid}/measure`,
      postJson(body, { ...WIDGET, ...(token === undefined ? {} : { [ACCESS_TOKEN_HEADER]: token }) }),
    )
  const poll = (token: string) =>
    h.request(`/api/offer-searches/${CREATED_UUID}`, { headers: { ...WIDGET, [ACCESS_TOKEN_HEADER]: token } })
  const upstreamBodies = () =>
    h.upstream.requests
      .filter((r) => r.method === 'POST')
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
  return { h, events, create, measure, poll, upstreamBodies }
}

describe('placement upstream: one clientTags.subId tag', () => {
  it('appends the placement to the tags, or adds clientTags with it, and never sends a placement field', async () => {
    const t = await harness()
    expect(
      (await t.create({ placement: 'home-hero', clientTags: { subId: ['campaign-1'] } })).res.status,
    ).toBe(201)
    expect((await t.create({ placement: 'quote-sidebar' })).res.status).toBe(201)
    expect(
      (await t.create({ placement: 'home-hero', clientTags: { subId: ['home-hero', 'x'] } })).res.status,
    ).toBe(201)
    expect((await t.create({ clientTags: { subId: ['campaign-1'] } })).res.status).toBe(201)
    const bodies = t.upstreamBodies()
    expect(bodies.map((b) => b.clientTags)).toEqual([
      { subId: ['campaign-1', 'home-hero'] },
      { subId: ['quote-sidebar'] },
      { subId: ['home-hero', 'x'] },
      { subId: ['campaign-1'] },
    ])
    for (const body of bodies) expect(body).not.toHaveProperty('placement')
    await t.h.close()
  })

  it('answers 400 naming clientTags.subId and the fix when the placement would make an eleventh tag', async () => {
    const t = await harness()
    const ten = Array.from({ length: 10 }, (_, i) => `tag-${i}`)
    const { res, json } = await t.create({ placement: 'home-hero', clientTags: { subId: ten } })
    expect(res.status).toBe(400)
    expect(json.errors).toEqual([
      {
        field: 'clientTags.subId',
        reason: expect.stringMatching(
          /at most 10 tags.*placement "home-hero".*at most 9 tags with a placement/,
        ),
      },
    ])
    // Ten tags that already hold the placement are fine.
    const holding = await t.create({ placement: 'tag-3', clientTags: { subId: ten } })
    expect(holding.res.status).toBe(201)
    expect(t.upstreamBodies()).toHaveLength(1)
    expect(t.events).toHaveLength(1)
    await t.h.close()
  })

  it('refuses a placement that breaks the pattern, naming the field', async () => {
    const t = await harness()
    const { res, json } = await t.create({ placement: 'has space' })
    expect(res.status).toBe(400)
    expect(json.errors).toEqual([
      { field: 'placement', reason: expect.stringMatching(/^placement must be 1 to 40/) },
    ])
    expect(t.upstreamBodies()).toHaveLength(0)
    await t.h.close()
  })

  it('the sandbox (the strict upstream) takes the tagged search', async () => {
    const events: SearchEvent[] = []
    const h = await sandboxHarness(
      'sandbox-token-placements',
      {},
      { searchEvents: async (e) => void events.push(...e) },
    )
    const res = await h.request(
      '/api/offer-searches',
      postJson({ placement: 'home-hero', clientTags: { subId: ['a'] } }),
    )
    expect(res.status).toBe(201)
    const { rateTable: table } = createdSearchSchema.parse(await res.json())
    expect(events).toEqual([
      expect.objectContaining({ kind: 'created', searchUuid: table.uuid, placement: 'home-hero' }),
    ])
    await h.close()
  })
})

describe('search records', () => {
  it('records the creation with its placement, and the completion once, at the first final rate table served', async () => {
    const t = await harness()
    t.h.upstream.script({ status: 201, body: rateTable(CREATED_UUID, 1) })
    const { json } = await t.create({ placement: 'home-hero' })
    expect(t.events).toEqual([
      {
        kind: 'created',
        searchUuid: CREATED_UUID,
        placement: 'home-hero',
        at: new Date('2026-03-02T10:00:00.000Z'),
        completed: false,
      },
    ])
    t.h.upstream.script(
      { status: 200, body: rateTable(CREATED_UUID, 1) },
      { status: 200, body: rateTable(CREATED_UUID, 0) },
      { status: 200, body: rateTable(CREATED_UUID, 0) },
    )
    for (let i = 0; i < 3; i++) {
      vi.setSystemTime(Date.now() + 1_100) // past the coalescer's second: each poll reaches the upstream
      expect((await t.poll(json.accessToken)).status).toBe(200)
    }
    expect(t.events.slice(1)).toEqual([
      { kind: 'completed', searchUuid: CREATED_UUID, at: new Date('2026-03-02T10:00:02.200Z') },
    ])
    await t.h.close()
  })

  it('a search final at creation is completed with it, and no placement is recorded as null', async () => {
    const t = await harness()
    t.h.upstream.script({ status: 201, body: rateTable(CREATED_UUID, 0) })
    const { json } = await t.create({})
    vi.setSystemTime(Date.now() + 1_100)
    await t.poll(json.accessToken)
    expect(t.events).toEqual([
      { kind: 'created', searchUuid: CREATED_UUID, placement: null, at: expect.any(Date), completed: true },
    ])
    await t.h.close()
  })

  it('a ledger that refuses the records fails no search, poll or measure: counted, logged without the search', async () => {
    const t = await harness(async () => {
      throw new LedgerError('write', 'ECONNREFUSED', true)
    })
    const { res, json } = await t.create({ placement: 'home-hero' })
    expect(res.status).toBe(201)
    vi.setSystemTime(Date.now() + 1_100)
    expect((await t.poll(json.accessToken)).status).toBe(200)
    expect((await t.measure(CREATED_UUID, { shown: ['offer-1'] }, json.accessToken)).status).toBe(204)
    await vi.waitFor(async () => {
      const metric = await t.h.app.services.metrics.searchEvents.get()
      expect(
        metric.values
          .filter((v) => v.labels.outcome === 'failed')
          .map((v) => v.labels.kind)
          .sort(),
      ).toEqual(['created', 'shown'])
    })
    const logged = t.h.logs.filter((l) => l.includes('placements:')).join('\n')
    expect(logged).toMatch(/ECONNREFUSED/)
    expect(logged).not.toMatch(/home-hero|offer-1|5d0f8a3e/)
    await t.h.close()
  })
})

describe('a full search-event queue', () => {
  it('counts the refused events dropped and logs nothing: a flood is not a flood of log lines', async () => {
    const t = await harness(async () => {
      throw new LedgerError('recordSearchEvents', SEARCH_EVENTS_OVERFLOW, true)
    })
    const { json } = await t.create({ placement: 'home-hero' })
    expect((await t.measure(CREATED_UUID, { shown: ['o1'] }, json.accessToken)).status).toBe(204)
    await vi.waitFor(async () => {
      const metric = await t.h.app.services.metrics.searchEvents.get()
      expect(
        metric.values.filter((v) => v.labels.outcome === 'dropped').map((v) => [v.labels.kind, v.value]),
      ).toEqual([
        ['created', 1],
        ['shown', 1],
      ])
    })
    expect(t.h.logs.filter((l) => l.includes('placements:'))).toEqual([])
    await t.h.close()
  })
})

describe('POST /api/offer-searches/:uuid/measure', () => {
  it('needs the search’s token: 401 without one, 403 for another search’s or an expired one', async () => {
    const t = await harness()
    const { json } = await t.create({ placement: 'home-hero' })
    const missing = await t.measure(CREATED_UUID, { shown: ['o1'] })
    expect(missing.status).toBe(401)
    expect(await missing.json()).toMatchObject({
      code: 'unauthorized',
      errors: [{ field: ACCESS_TOKEN_HEADER }],
    })
    const other = await t.measure(OTHER_UUID, { shown: ['o1'] }, json.accessToken)
    expect(other.status).toBe(403)
    expect(await other.json()).toMatchObject({ code: 'forbidden', errors: [{ field: ACCESS_TOKEN_HEADER }] })
    expect((await t.measure(CREATED_UUID, { shown: ['o1'] }, 'not-a-token')).status).toBe(403)
    vi.setSystemTime(Date.now() + (t.h.config.accessTokenTtlSeconds + 1) * 1000)
    expect((await t.measure(CREATED_UUID, { shown: ['o1'] }, json.accessToken)).status).toBe(403)
    expect(t.events.map((e) => e.kind)).toEqual(['created'])
    await t.h.close()
  })

  it('answers 400 naming the field for a body that is not a measure', async () => {
    const t = await harness()
    const { json } = await t.create({})
    const fieldsOf = async (body: unknown) => {
      const res = await t.measure(CREATED_UUID, body, json.accessToken)
      expect(res.status).toBe(400)
      return ((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)
    }
    expect(await fieldsOf({ shown: [] })).toEqual(['shown'])
    expect(await fieldsOf({ shown: [''] })).toEqual(['shown.0'])
    // The contract's union names the body, not `shown`, for one offer too many (src/contract/placement.ts).
    expect(await fieldsOf({ shown: Array.from({ length: 51 }, (_, i) => `o${i}`) })).toEqual(['(body)'])
    expect(await fieldsOf({ clicked: 1 })).toEqual(['(body)'])
    expect((await t.measure('not-a-uuid', { shown: ['o'] }, json.accessToken)).status).toBe(400)
    expect(t.events.map((e) => e.kind)).toEqual(['created'])
    await t.h.close()
  })

  it('answers 204 and hands each offer shown and each click to the ledger once, however often it repeats', async () => {
    const t = await harness()
    const { json } = await t.create({ placement: 'home-hero' })
    const ok = async (body: unknown) => {
      const res = await t.measure(CREATED_UUID, body, json.accessToken)
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')
    }
    await ok({ shown: ['o1', 'o2', 'o1'] })
    await ok({ shown: ['o2', 'o3'] })
    await ok({ shown: ['o1'] })
    await ok({ clicked: 'o2' })
    await ok({ clicked: 'o2' })
    expect(t.events.slice(1).map(({ at: _at, ...e }) => e)).toEqual([
      { kind: 'shown', searchUuid: CREATED_UUID, offerIds: ['o1', 'o2'] },
      { kind: 'shown', searchUuid: CREATED_UUID, offerIds: ['o3'] },
      { kind: 'clicked', searchUuid: CREATED_UUID, offerId: 'o2' },
    ])
    await t.h.close()
  })

  it('answers a cross-origin preflight like the poll route', async () => {
    const t = await harness()
    const preflight = (path: string) =>
      t.h.request(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://publisher.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': `content-type, x-offer-widget, ${ACCESS_TOKEN_HEADER.toLowerCase()}`,
        },
      })
    const measured = await preflight(`/api/offer-searches/${CREATED_UUID}/measure`)
    const polled = await preflight(`/api/offer-searches/${CREATED_UUID}`)
    expect(measured.status).toBe(polled.status)
    expect([...measured.headers].filter(([k]) => k.startsWith('access-control'))).toEqual(
      [...polled.headers].filter(([k]) => k.startsWith('access-control')),
    )
    await t.h.close()
  })

  it('without a ledger still answers 204 and counts the events unrecorded', async () => {
    const h = await fakeHarness()
    h.upstream.fallback = () => ({ status: 201, body: tableWith(CREATED_UUID, 1) })
    const res = await h.request('/api/offer-searches', postJson({ placement: 'home-hero' }))
    const { accessToken } = createdSearchSchema.parse(await res.json())
    const measured = await h.request(
      `/api/offer-searches/${CREATED_UUID}/measure`,
      postJson({ clicked: 'o1' }, { ...WIDGET, [ACCESS_TOKEN_HEADER]: accessToken }),
    )
    expect(measured.status).toBe(204)
    const metric = await h.app.services.metrics.searchEvents.get()
    expect(metric.values.map((v) => [v.labels.kind, v.labels.outcome, v.value])).toEqual([
      ['created', 'unrecorded', 1],
      ['clicked', 'unrecorded', 1],
    ])
    await h.close()
  })
})

describe('the measure counts what was served, once, within its limits', () => {
  const measured = async (t: Awaited<ReturnType<typeof harness>>) =>
    (await t.h.app.services.metrics.measuredOffers.get()).values.map((v) => [
      v.labels.kind,
      v.labels.outcome,
      v.value,
    ])

  it('records none of the offers no rate table served for the search, and counts them unserved', async () => {
    const t = await harness()
    const { json } = await t.create({ placement: 'home-hero' })
    const made = Array.from({ length: 50 }, (_, i) => `made-up-${i}`)
    for (const body of [{ shown: made }, { shown: ['made-up-x', 'o1'] }, { clicked: 'made-up-y' }]) {
      expect((await t.measure(CREATED_UUID, body, json.accessToken)).status).toBe(204)
    }
    // An offer a later poll serves counts from then on.
    t.h.upstream.script({ status: 200, body: tableWith(CREATED_UUID, 0, [...SERVED, 'o4']) })
    vi.setSystemTime(Date.now() + 1_100)
    expect((await t.poll(json.accessToken)).status).toBe(200)
    expect((await t.measure(CREATED_UUID, { clicked: 'o4' }, json.accessToken)).status).toBe(204)
    expect(t.events.slice(1).map(({ at: _at, ...e }) => e)).toEqual([
      { kind: 'shown', searchUuid: CREATED_UUID, offerIds: ['o1'] },
      { kind: 'completed', searchUuid: CREATED_UUID },
      { kind: 'clicked', searchUuid: CREATED_UUID, offerId: 'o4' },
    ])
    expect(await measured(t)).toEqual([
      ['shown', 'unserved', 51],
      ['shown', 'counted', 1],
      ['clicked', 'unserved', 1],
      ['clicked', 'counted', 1],
    ])
    await t.h.close()
  })

  it('counts the offers of a search a publisher’s server created final, which the widget never polls', async () => {
    const key = `${'k'.repeat(20)}0123456789abcdef`
    const t = await harness(undefined, { env: { SERVER_API_KEYS: key } })
    t.h.upstream.script({ status: 201, body: tableWith(CREATED_UUID, 0) })
    const res = await t.h.request('/api/server/offer-searches', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'node', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        visitor: { ipAddress: '81.2.69.160', userAgent: UA },
        search: { placement: 'home-hero' },
      }),
    })
    expect(res.status).toBe(201)
    const { accessToken } = createdSearchSchema.parse(await res.json())
    const ok = (body: unknown) => t.measure(CREATED_UUID, body, accessToken)
    expect((await ok({ shown: ['o1', 'o2', 'made-up'] })).status).toBe(204)
    expect((await ok({ clicked: 'o2' })).status).toBe(204)
    expect(t.events.map(({ at: _at, ...e }) => e)).toEqual([
      { kind: 'created', searchUuid: CREATED_UUID, placement: 'home-hero', completed: true },
      { kind: 'shown', searchUuid: CREATED_UUID, offerIds: ['o1', 'o2'] },
      { kind: 'clicked', searchUuid: CREATED_UUID, offerId: 'o2' },
    ])
    expect(await measured(t)).toEqual([
      ['shown', 'unserved', 1],
      ['shown', 'counted', 2],
      ['clicked', 'counted', 1],
    ])
    await t.h.close()
  })

  it('counts an offer once however often it is measured, even after a flood of made-up offers', async () => {
    const t = await harness()
    const { json } = await t.create({})
    const ok = (body: unknown) => t.measure(CREATED_UUID, body, json.accessToken)
    expect((await ok({ shown: ['o1', 'o1'] })).status).toBe(204)
    // Made-up offers enough to fill any memory of what was counted, over several windows of the limit.
    for (let round = 0; round < 210; round++) {
      if (round % 30 === 0) vi.setSystemTime(Date.now() + 61_000)
      await ok({ shown: Array.from({ length: 50 }, (_, i) => `made-up-${round}-${i}`) })
    }
    vi.setSystemTime(Date.now() + 61_000)
    expect((await ok({ shown: ['o1', 'o2'] })).status).toBe(204)
    expect((await ok({ shown: ['o1'] })).status).toBe(204)
    const shown = t.events.flatMap((e) => (e.kind === 'shown' ? e.offerIds : []))
    expect(shown.filter((id) => !id.startsWith('made-up'))).toEqual(['o1', 'o2'])
    expect(shown).toEqual(['o1', 'o2'])
    await t.h.close()
  })

  it('answers 429 with Retry-After past the per-search limit, counting the refusals; the next window takes measures again', async () => {
    const t = await harness()
    const { json } = await t.create({})
    const statuses: number[] = []
    let refusal: Response | undefined
    for (let i = 0; i < MEASURES_PER_SEARCH + 10; i++) {
      const res = await t.measure(CREATED_UUID, { shown: [`made-up-${i}`] }, json.accessToken)
      statuses.push(res.status)
      if (res.status === 429) refusal ??= res
    }
    expect(statuses.filter((s) => s === 204)).toHaveLength(MEASURES_PER_SEARCH)
    expect(statuses.slice(MEASURES_PER_SEARCH)).toEqual(Array(10).fill(429))
    expect(Number(refusal?.headers.get('retry-after'))).toBeGreaterThan(0)
    const limited = await t.h.app.services.metrics.rateLimited.get()
    expect(limited.values.map((v) => [v.labels.route, v.value])).toEqual([[MEASURE_ROUTE, 10]])
    vi.setSystemTime(Date.now() + t.h.config.rateLimit.windowSeconds * 1000 + 1)
    expect((await t.measure(CREATED_UUID, { clicked: 'o1' }, json.accessToken)).status).toBe(204)
    expect(t.events.filter((e) => e.kind === 'clicked')).toHaveLength(1)
    await t.h.close()
  })

  it('answers 429 past the per-address limit, across the searches of that address', async () => {
    let address = '198.51.100.1'
    const t = await harness(undefined, {
      env: { RATE_LIMIT_POINTS: '1' },
      options: { rateLimit: {} },
      peer: () => address,
    })
    const first = (await t.create({})).json
    address = '198.51.100.2'
    t.h.upstream.script({ status: 201, body: tableWith(OTHER_UUID, 1) })
    const second = (await t.create({})).json
    address = '198.51.100.1'
    // One search a window per address (RATE_LIMIT_POINTS=1): as many measures as one search may send.
    const perAddress = MEASURES_PER_SEARCH
    for (let i = 0; i < perAddress - 5; i++) {
      expect((await t.measure(CREATED_UUID, { shown: ['o1'] }, first.accessToken)).status).toBe(204)
    }
    for (let i = 0; i < 5; i++) {
      expect((await t.measure(OTHER_UUID, { shown: ['o1'] }, second.accessToken)).status).toBe(204)
    }
    const refused = await t.measure(OTHER_UUID, { shown: ['o1'] }, second.accessToken)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).not.toBeNull()
    // The other address still measures the same search.
    address = '198.51.100.2'
    expect((await t.measure(OTHER_UUID, { shown: ['o2'] }, second.accessToken)).status).toBe(204)
    await t.h.close()
  })
})
