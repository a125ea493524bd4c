/**
 * @module The BFF end to end through `app.request`, against the sandbox on loopback: issuers, create,
 * poll with the access token, and the safety rules (CORS, widget header, body limit, per-IP limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { issuerListSchema, rateTableSchema } from '../../src/contract/offer-search.ts'
import { fakeHarness } from './support/fake-harness.ts'
import { type Harness, postJson, sandboxHarness, UA, WIDGET } from './support/harness.ts'

const TOKEN = 'sandbox-token-for-create-bff-tests'
let h: Harness

beforeAll(async () => {
  h = await sandboxHarness(
    TOKEN,
    { ALLOWED_ORIGINS: 'https://publisher.example' },
    { rateLimit: { points: 1000 } },
  )
})
afterAll(() => h.close())

async function createSearch(zip = '00001') {
  const res = await h.request('/api/offer-searches', postJson({ personalInformation: { zipCode: zip } }))
  expect(res.status).toBe(201)
  return createdSearchSchema.parse(await res.json())
}

describe('GET /api/issuers', () => {
  it('answers the upstream list, validated, cacheable', async () => {
    const res = await h.request('/api/issuers')
    expect(res.status).toBe(200)
    expect(issuerListSchema.parse(await res.json()).length).toBeGreaterThan(0)
    expect(res.headers.get('cache-control')).toMatch(/max-age/)
  })
})

describe('POST /api/offer-searches', () => {
  it('answers 201 with an access token and the upstream rate table', async () => {
    const created = await createSearch()
    expect(rateTableSchema.safeParse(created.rateTable).success).toBe(true)
    expect(created.accessToken).not.toContain(TOKEN)
  })

  it('refuses a POST without X-Offer-Widget with 403 (it forces a CORS preflight)', async () => {
    const res = await h.request('/api/offer-searches', postJson({}, { 'user-agent': UA }))
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ code: 'forbidden' })
  })

  it('answers 400 validation_failed naming the field for a bad body, and 400 for non-JSON', async () => {
    const res = await h.request('/api/offer-searches', postJson({ personalInformation: { zipCode: 'abc' } }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.code).toBe('validation_failed')
    expect(body.errors[0].field).toBe('personalInformation.zipCode')
    expect((await h.request('/api/offer-searches', postJson('{not json'))).status).toBe(400)
  })

  it('refuses product types other than AutomobileInsurance', async () => {
    const res = await h.request('/api/offer-searches', postJson({ productTypes: ['PersonalLoan'] }))
    expect(res.status).toBe(400)
  })

  it('answers 413 for a body over 16 KB', async () => {
    const res = await h.request('/api/offer-searches', postJson({ padding: 'x'.repeat(17 * 1024) }))
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' })
  })

  it('bounds an /api write that declares no limit of its own at the 64 KB ceiling', async () => {
    // No route is mounted here: past the ceiling's check, the answer is the API's 404.
    const within = await h.request('/api/unmounted', postJson({ padding: 'x'.repeat(40 * 1024) }))
    expect(within.status).toBe(404)
    const over = await h.request('/api/unmounted', postJson({ padding: 'x'.repeat(65 * 1024) }))
    expect(over.status).toBe(413)
    expect(await over.json()).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining('65536'),
    })
  })
})

describe('GET /api/offer-searches/:uuid', () => {
  it('answers the rate table with the access token of its uuid', async () => {
    const created = await createSearch()
    const res = await h.request(`/api/offer-searches/${created.rateTable.uuid}`, {
      headers: { 'x-offer-access-token': created.accessToken },
    })
    expect(res.status).toBe(200)
    expect(rateTableSchema.parse(await res.json()).uuid).toBe(created.rateTable.uuid)
  })

  it('answers 404 without a token, with a wrong one, or with the token of another search', async () => {
    const a = await createSearch()
    const b = await createSearch()
    const path = `/api/offer-searches/${a.rateTable.uuid}`
    const attempts: Record<string, string>[] = [
      {},
      { 'x-offer-access-token': 'v1.1.x' },
      { 'x-offer-access-token': b.accessToken },
    ]
    for (const headers of attempts) {
      const res = await h.request(path, { headers })
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ code: 'not_found' })
    }
  })

  it('answers 400 for a malformed uuid', async () => {
    const res = await h.request('/api/offer-searches/not-a-uuid', {
      headers: { 'x-offer-access-token': 'x' },
    })
    expect(res.status).toBe(400)
  })
})

describe('CORS', () => {
  it('answers a preflight from a listed origin with that exact origin', async () => {
    const res = await h.request('/api/offer-searches', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://publisher.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-offer-widget',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://publisher.example')
    const allowed = res.headers.get('access-control-allow-headers')?.toLowerCase()
    expect(allowed).toContain('x-offer-widget')
    // A second-look retry from another origin must be able to send its Idempotency-Key.
    expect(allowed).toContain('idempotency-key')
  })

  it('refuses a preflight from an unlisted origin, and never reflects it or answers *', async () => {
    const res = await h.request('/api/offer-searches', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const get = await h.request('/api/issuers', { headers: { origin: 'https://evil.example' } })
    expect(get.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('serves same-origin requests (no Origin header) without any ALLOWED_ORIGINS', async () => {
    const res = await h.request('/api/offer-searches', postJson({}, WIDGET))
    expect(res.status).toBe(201)
  })
})

describe('security headers and operations', () => {
  it('sets security headers', async () => {
    const res = await h.request('/healthz')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('/readyz is 200 when the upstream accepts the token', async () => {
    expect((await h.request('/readyz')).status).toBe(200)
  })

  it('/metrics exposes requests by route and status, upstream calls and the rest', async () => {
    const text = await (await h.request('/metrics')).text()
    expect(text).toMatch(
      /bff_http_requests_total\{method="POST",route="\/api\/offer-searches",status="201"\}/,
    )
    expect(text).toMatch(/bff_http_request_duration_seconds_bucket/)
    expect(text).toMatch(/bff_upstream_requests_total\{operation="create",status="201"\}/)
    expect(text).toMatch(/bff_coalesced_polls_total|# HELP bff_coalesced_polls_total/)
    expect(text).toMatch(/# HELP bff_rate_limited_total/)
  })

  it('/metrics labels a route by its pattern, never the raw path nor the /* of a middleware', async () => {
    // As `npm start` mounts it: a static-files route on GET * after every API route.
    const f = await fakeHarness({}, { staticFiles: async (_c, next) => next() })
    const uuid = '0b7c4a52-9f0e-4d8e-b0a4-6f2b8c1d3e4f'
    await f.request(`/api/offer-searches/${uuid}`, {
      headers: { ...WIDGET, 'x-offer-access-token': f.app.services.accessTokens.issue(uuid) },
    })
    await f.request('/api/issuers', { headers: WIDGET })
    const text = await (await f.request('/metrics')).text()
    await f.close()
    expect(text).toMatch(
      /bff_http_requests_total\{method="GET",route="\/api\/offer-searches\/:uuid",status="\d+"\}/,
    )
    expect(text).toMatch(/bff_http_requests_total\{method="GET",route="\/api\/issuers",status="200"\}/)
    expect(text).not.toContain(uuid)
    expect(text).not.toMatch(/route="\/\*",status="200"/)
  })

  it('answers JSON 404 for unknown API routes', async () => {
    const res = await h.request('/api/nope')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'not_found' })
  })
})

describe('/readyz with a token the upstream refuses', () => {
  it('is degraded upstream_misconfigured, and 503 for a startup probe that requires the upstream', async () => {
    const wrong = await sandboxHarness(TOKEN)
    const bad = await sandboxHarness('another-token-the-sandbox-knows', {
      ENGINE_BASE_URL_TEST: `${wrong.sandboxUrl}/test`,
    })
    const res = await bad.request('/readyz')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'degraded', code: 'upstream_misconfigured' })
    const startup = await bad.request('/readyz?require=upstream')
    expect(startup.status).toBe(503)
    expect(await startup.json()).toMatchObject({ status: 'not_ready', code: 'upstream_misconfigured' })
    await bad.close()
    await wrong.close()
  })
})

describe('headers on error answers', () => {
  it('a listed origin can read error bodies: CORS, Vary and security headers are on 4xx answers too', async () => {
    const res = await h.request('/api/offer-searches', {
      ...postJson({ personalInformation: { zipCode: 'bad' } }),
      headers: { ...WIDGET, 'content-type': 'application/json', origin: 'https://publisher.example' },
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://publisher.example')
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Retry-After/i)
    expect(res.headers.get('vary')).toMatch(/Origin/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin')
    const missing = await h.request('/api/nope', { headers: { origin: 'https://publisher.example' } })
    expect(missing.headers.get('access-control-allow-origin')).toBe('https://publisher.example')
  })
})
