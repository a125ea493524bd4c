/**
 * @module The upstream client's fault matrix against a real loopback server: docs/offer-search-api.md's error table
 * ("429 ... honor Retry-After when present, back off exponentially"; "500, 503 ... a single 5xx is not a
 * failed search") mapped to the widget's `{ code, message }` with no crash and no unhandled rejection.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { createMetrics } from '../../src/bff/metrics.ts'
import {
  createUpstreamClient,
  toBffError,
  type UpstreamClientOptions,
  UpstreamError,
} from '../../src/bff/upstream/index.ts'
import type { OfferSearchRequest } from '../../src/contract/offer-search.ts'
import { createFakeClock, type FakeClock } from '../support/fake-clock.ts'
import { type FakeUpstream, ISSUERS, logSink, rateTable, startFakeUpstream } from './support/fake-upstream.ts'

const TOKEN = 'upstream-test-token-Zq9'
const UUID = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'
const NOW = Date.parse('2026-03-01T12:00:00Z')
const SEARCH: OfferSearchRequest = {
  productTypes: ['AutomobileInsurance'],
  sessionInformation: { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0' },
}

let upstream: FakeUpstream
let clock: FakeClock
let sleeps: number[]
let logs: ReturnType<typeof logSink>
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => void unhandled.push(reason)

beforeAll(async () => {
  upstream = await startFakeUpstream()
  process.on('unhandledRejection', onUnhandled)
})
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  await upstream.close()
})
beforeEach(() => {
  upstream.requests.length = 0
  upstream.fallback = () => ({ status: 500 })
  // Fake time that only the client's retry waits move: retries are checked without waiting.
  clock = createFakeClock({ start: NOW, stepping: true })
  sleeps = clock.waits
  logs = logSink()
})
afterEach(() => expect(unhandled).toEqual([]))

function client(overrides: Partial<UpstreamClientOptions> = {}) {
  return createUpstreamClient({
    baseUrl: upstream.url,
    token: TOKEN,
    apiVersion: '2026-02-25',
    env: 'test',
    requestTimeoutMs: 300,
    logger: createLogger({ destination: logs.destination }),
    metrics: createMetrics(),
    timers: clock.timers,
    random: () => 0.5,
    ...overrides,
  })
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(UpstreamError)
  return error as UpstreamError
}

async function widgetSees(error: UpstreamError) {
  const response = toBffError(error).getResponse()
  return { status: response.status, headers: response.headers, body: await response.json() }
}

describe('upstream client: requests', () => {
  it('sends Authorization, Api-Version and Content-Type, to the configured base path', async () => {
    upstream.script({ status: 201, body: rateTable(UUID) })
    const c = client()
    await c.createOfferSearch(SEARCH)
    const [sent] = upstream.requests
    expect(sent?.method).toBe('POST')
    expect(sent?.url).toBe('/v1/offerSearches/')
    expect(sent?.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(sent?.headers['api-version']).toBe('2026-02-25')
    expect(sent?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(sent?.body ?? '')).toEqual(SEARCH)
    await c.close()
  })

  it('validates issuers and rate tables with the contract', async () => {
    upstream.script({ status: 200, body: ISSUERS }, { status: 200, body: rateTable(UUID, 1) })
    const c = client()
    expect(await c.listIssuers()).toEqual(ISSUERS)
    expect((await c.getOfferSearch(UUID)).value.pendingResponses).toHaveLength(1)
    expect(upstream.requests.map((r) => r.url)).toEqual([
      '/v1/leads/autoInsurance/issuers',
      `/v1/offerSearches/${UUID}`,
    ])
    await c.close()
  })
})

describe('upstream client: fault matrix', () => {
  it('429 with Retry-After in seconds: waits that long, then succeeds', async () => {
    upstream.script({ status: 429, headers: { 'retry-after': '2' } }, { status: 200, body: ISSUERS })
    const c = client()
    expect(await c.listIssuers()).toHaveLength(2)
    expect(sleeps).toEqual([2000])
    await c.close()
  })

  it('429 with Retry-After as an HTTP-date: waits until that date', async () => {
    const date = new Date(NOW + 3000).toUTCString()
    upstream.script({ status: 429, headers: { 'retry-after': date } }, { status: 201, body: rateTable(UUID) })
    const c = client()
    await c.createOfferSearch(SEARCH)
    expect(sleeps).toEqual([3000])
    // A 429 is answered before processing, so even the POST is retried.
    expect(upstream.requests).toHaveLength(2)
    await c.close()
  })

  it('429 whose Retry-After exceeds the budget: 429 to the widget with Retry-After, no wait', async () => {
    upstream.script({ status: 429, headers: { 'retry-after': '30' } })
    const c = client()
    const error = await failure(c.listIssuers())
    expect(sleeps).toEqual([])
    const seen = await widgetSees(error)
    expect(seen.status).toBe(429)
    expect(seen.headers.get('retry-after')).toBe('30')
    expect(seen.body).toEqual({ code: 'rate_limited', message: expect.any(String) })
    await c.close()
  })

  it('500 on a GET: exponential backoff with full jitter, then success', async () => {
    upstream.script({ status: 500 }, { status: 502 }, { status: 200, body: ISSUERS })
    const c = client()
    await c.listIssuers()
    // random() = 0.5 of a ceiling 250 ms, then 500 ms.
    expect(sleeps).toEqual([125, 250])
    await c.close()
  })

  it('persistent 5xx: gives up after maxAttempts with 503 upstream_unavailable', async () => {
    upstream.fallback = () => ({ status: 500 })
    const c = client()
    const error = await failure(c.listIssuers())
    expect(upstream.requests).toHaveLength(3)
    const seen = await widgetSees(error)
    expect(seen.status).toBe(503)
    expect(seen.body.code).toBe('upstream_unavailable')
    await c.close()
  })

  it('503 on a POST is retried (answered before processing); 500 on a POST is not (a lead may exist)', async () => {
    upstream.script({ status: 503 }, { status: 201, body: rateTable(UUID) })
    const c = client()
    await c.createOfferSearch(SEARCH)
    expect(upstream.requests).toHaveLength(2)

    upstream.requests.length = 0
    upstream.script({ status: 500 })
    const error = await failure(c.createOfferSearch(SEARCH))
    expect(upstream.requests).toHaveLength(1)
    expect((await widgetSees(error)).status).toBe(503)
    await c.close()
  })

  it('timeout: a GET is retried, a POST is not; both end as 503', async () => {
    upstream.fallback = () => 'hang'
    const c = client({ requestTimeoutMs: 50, retry: { issuers: { maxAttempts: 2 } } })
    const getError = await failure(c.listIssuers())
    expect(getError.kind).toBe('timeout')
    expect(upstream.requests).toHaveLength(2)

    upstream.requests.length = 0
    const postError = await failure(c.createOfferSearch(SEARCH))
    expect(upstream.requests).toHaveLength(1)
    expect((await widgetSees(postError)).status).toBe(503)
    await c.close()
  })

  it('connection reset: a GET is retried, a POST is not', async () => {
    upstream.script('reset', { status: 200, body: ISSUERS })
    const c = client()
    expect(await c.listIssuers()).toHaveLength(2)
    expect(upstream.requests).toHaveLength(2)

    upstream.requests.length = 0
    upstream.script('reset')
    const error = await failure(c.createOfferSearch(SEARCH))
    expect(upstream.requests).toHaveLength(1)
    expect((await widgetSees(error)).body.code).toBe('upstream_unavailable')
    await c.close()
  })

  it('connection refused: the POST provably never arrived, so it is retried, then 503', async () => {
    const closed = await startFakeUpstream()
    const baseUrl = closed.url
    await closed.close()
    const c = client({ baseUrl })
    const error = await failure(c.createOfferSearch(SEARCH))
    expect(sleeps).toHaveLength(2)
    expect((await widgetSees(error)).status).toBe(503)
    await c.close()
  })

  it('malformed JSON and off-contract bodies: 502 and a log line, never a crash', async () => {
    upstream.script({ status: 200, raw: '{"uuid": ' }, { status: 200, body: { uuid: 'nope' } })
    const c = client()
    const notJson = await failure(c.getOfferSearch(UUID))
    const offContract = await failure(c.getOfferSearch(UUID))
    for (const error of [notJson, offContract]) {
      expect(error.kind).toBe('malformed')
      const seen = await widgetSees(error)
      expect(seen.status).toBe(502)
      expect(seen.body.code).toBe('upstream_unavailable')
    }
    expect(logs.lines.join('')).toMatch(/not JSON/)
    expect(logs.lines.join('')).toMatch(/does not match the offer search contract/)
    await c.close()
  })

  it('a poll answer is validated unless it is byte-identical to the last validated one', async () => {
    const valid = JSON.stringify(rateTable(UUID, 1))
    upstream.script(
      { status: 200, raw: valid },
      { status: 200, raw: valid },
      { status: 200, body: { uuid: 'nope' } },
    )
    const c = client()
    const first = await c.pollOfferSearchJson(UUID)
    expect(first).toBe(valid)
    expect(await c.pollOfferSearchJson(UUID, first)).toBe(valid)
    // A changed answer goes through the contract again, even with a previous text in hand.
    expect((await failure(c.pollOfferSearchJson(UUID, first))).kind).toBe('malformed')
    await c.close()
  })

  it('a poll answered with another rate table is refused, never served', async () => {
    upstream.script({ status: 200, body: rateTable('99999999-9999-4999-8999-999999999999') })
    const c = client()
    expect((await failure(c.getOfferSearch(UUID))).kind).toBe('malformed')
    await c.close()
  })

  it('an oversized body is refused', async () => {
    upstream.script({ status: 200, raw: `[${'"x",'.repeat(5000)}"x"]` })
    const c = client({ maxBodyBytes: 1000 })
    expect((await failure(c.listIssuers())).kind).toBe('malformed')
    await c.close()
  })

  it('401: 502 upstream_misconfigured, and one log line naming ENGINE_TOKEN and ENGINE_ENV (never the token)', async () => {
    upstream.fallback = () => ({ status: 401, body: { errors: [] } })
    const c = client()
    const error = await failure(c.listIssuers())
    await failure(c.listIssuers())
    const seen = await widgetSees(error)
    expect(seen.status).toBe(502)
    expect(seen.body.code).toBe('upstream_misconfigured')
    const lines = logs.lines.filter((line) => line.includes('401'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/ENGINE_TOKEN/)
    expect(lines[0]).toMatch(/ENGINE_ENV=test/)
    expect(logs.lines.join('')).not.toContain(TOKEN)
    await c.close()
  })

  it("401: the line is logged again once a minute has passed on the client's clock, not before", async () => {
    upstream.fallback = () => ({ status: 401, body: { errors: [] } })
    const c = client()
    const logged = () => logs.lines.filter((line) => line.includes('401')).length
    await failure(c.listIssuers())
    clock.advance(59_999)
    await failure(c.listIssuers())
    expect(logged()).toBe(1)
    clock.advance(1)
    await failure(c.listIssuers())
    expect(logged()).toBe(2)
    await c.close()
  })

  it('422: 502 upstream_misconfigured, and a log line naming API_VERSION', async () => {
    upstream.script({ status: 422 })
    const c = client()
    const seen = await widgetSees(await failure(c.listIssuers()))
    expect(seen.status).toBe(502)
    expect(logs.lines.join('')).toMatch(/API_VERSION=2026-02-25/)
    await c.close()
  })

  it('400: 400 with the upstream field errors; an unreadable 400 body still gives 400', async () => {
    upstream.script(
      { status: 400, body: { errors: [{ field: 'personalInformation.zipcode', reason: 'unknown ZIP' }] } },
      { status: 400, raw: 'bad' },
    )
    const c = client()
    const withFields = await widgetSees(await failure(c.createOfferSearch(SEARCH)))
    expect(withFields).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        errors: [{ field: 'personalInformation.zipcode', reason: 'unknown ZIP' }],
      },
    })
    const bare = await widgetSees(await failure(c.createOfferSearch(SEARCH)))
    expect(bare).toMatchObject({ status: 400, body: { code: 'bad_request' } })
    expect(upstream.requests).toHaveLength(2)
    await c.close()
  })

  it('404: 404 not_found; a poll is never retried', async () => {
    upstream.script({ status: 404 })
    const c = client()
    const seen = await widgetSees(await failure(c.getOfferSearch(UUID)))
    expect(seen).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(upstream.requests).toHaveLength(1)
    await c.close()
  })
})
