/**
 * @module Fuzzing the BFF's edges with fast-check: whatever the body, headers or path, the BFF itself
 * never answers 5xx for bad input (the upstream here always answers well), and it never sends a request
 * anywhere but the configured upstream's API paths.
 */
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { CREATED_UUID, fakeHarness } from './support/fake-harness.ts'
import type { FakeUpstream } from './support/fake-upstream.ts'
import { type Harness, UA, WIDGET } from './support/harness.ts'

let h: Harness & { upstream: FakeUpstream }
let upstreamHost: string
const fetchSpy = vi.spyOn(globalThis, 'fetch')
const UPSTREAM_PATHS =
  /^\/v1\/(leads\/autoInsurance\/issuers|offerSearches\/|offerSearches\/[0-9a-fA-F-]{36})$/

beforeAll(async () => {
  h = await fakeHarness({ TRUST_PROXY: '1', ALLOWED_ORIGINS: 'https://publisher.example' })
  upstreamHost = new URL(h.upstream.url).host
})
afterAll(async () => {
  fetchSpy.mockRestore()
  await h.close()
})
afterEach(() => {
  expect(fetchSpy).not.toHaveBeenCalled()
  for (const request of h.upstream.requests) {
    expect(request.headers.host).toBe(upstreamHost)
    expect(request.url).toMatch(UPSTREAM_PATHS)
  }
})

/** Headers that `Headers` accepts (it refuses some bytes outright, which no client could send). */
function headersOf(entries: Record<string, string>): Headers | undefined {
  try {
    return new Headers(entries)
  } catch {
    return undefined
  }
}

const noServerError = (status: number) => expect(status, `answered ${status}`).toBeLessThan(500)

// 200 runs of real loopback requests per property: the limit catches a hang, not slowness (a loaded
// 2-core runner took over 5 s for one property).
describe('fuzz', { timeout: 30_000 }, () => {
  it('bodies: any JSON value or byte string is a 201, 400 or 413, never 5xx', async () => {
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 300 }),
      fc
        .record(
          {
            personalInformation: fc.record(
              { zipCode: fc.string(), dateOfBirth: fc.string() },
              { requiredKeys: [] },
            ),
            autoInsuranceInformation: fc.record(
              {
                numberOfVehicles: fc.oneof(fc.integer(), fc.double(), fc.string()),
                currentIssuer: fc.string(),
              },
              { requiredKeys: [] },
            ),
            productTypes: fc.array(fc.string()),
            sessionInformation: fc.anything(),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    )
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const res = await h.request('/api/offer-searches', {
          method: 'POST',
          headers: { ...WIDGET, 'content-type': 'application/json' },
          body: text,
        })
        noServerError(res.status)
        expect([201, 400, 413]).toContain(res.status)
      }),
      { numRuns: 150 },
    )
  })

  it('headers: spoofed forwarding, agents, tokens, origins and content types never cause a 5xx', async () => {
    const header = fc.oneof(fc.string({ maxLength: 80 }), fc.ipV4(), fc.ipV6(), fc.constant(''))
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          xff: fc.array(header, { maxLength: 4 }).map((parts) => parts.join(', ')),
          ua: fc.oneof(fc.constant(UA), fc.string({ maxLength: 3000 })),
          token: fc.string({ maxLength: 100 }),
          origin: fc.oneof(
            fc.constant('https://publisher.example'),
            fc.webUrl(),
            fc.string({ maxLength: 40 }),
          ),
          contentType: fc.oneof(fc.constant('application/json'), fc.string({ maxLength: 40 })),
          widget: fc.string({ maxLength: 20 }),
        }),
        fc.constantFrom('GET', 'POST', 'OPTIONS', 'PUT', 'DELETE'),
        async (values, method) => {
          const headers = headersOf({
            'x-forwarded-for': values.xff,
            'user-agent': values.ua,
            'x-offer-access-token': values.token,
            origin: values.origin,
            'content-type': values.contentType,
            'x-offer-widget': values.widget,
          })
          if (!headers) return
          const path = method === 'GET' ? `/api/offer-searches/${CREATED_UUID}` : '/api/offer-searches'
          const res = await h.request(path, { method, headers, body: method === 'POST' ? '{}' : undefined })
          noServerError(res.status)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('paths: any path under /api, and any uuid segment, is answered below 500 with no stray upstream call', async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 60 }).map(encodeURIComponent),
      fc.uuid(),
      fc.constantFrom('..', '%2e%2e', '%2F', '//evil.example', '@evil.example', '%00', 'issuers'),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (segments, underSearches) => {
          const path = underSearches
            ? `/api/offer-searches/${segments.join('/')}`
            : `/api/${segments.join('/')}`
          const res = await h.request(path, {
            headers: { 'user-agent': UA, 'x-offer-access-token': 'v1.9.x' },
          })
          noServerError(res.status)
        },
      ),
      { numRuns: 200 },
    )
    // No token matched, so no poll reached the upstream at all.
    expect(h.upstream.requests.filter((r) => r.method === 'GET' && r.url.includes('offerSearches'))).toEqual(
      [],
    )
  })
})
