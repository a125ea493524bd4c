/**
 * @module `POST /api/server/offer-searches`: a publisher's server creates a search for its visitor. What the
 * recording upstream receives is the visitor sent, never the caller's own address or user agent; keys,
 * browsers, bad visitors and per-key limits are refused with the answer that says why.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createdSearchSchema } from '../../../src/contract/bff.ts'
import { isPublicAddress } from '../../../src/contract/network-host.ts'
import { isBrowserLikeUserAgent } from '../../../src/contract/server-search.ts'
import { createServerSearch, ServerSearchError } from '../../../src/publisher/create-server-search.ts'
import { ConfigError, loadConfig } from '../../../src/server/config.ts'
import { CREATED_UUID, fakeHarness } from '../support/fake-harness.ts'
import { buildHarness, UA, WIDGET } from '../support/harness.ts'

const KEY_A = `${'a'.repeat(20)}0123456789abcdef`
const KEY_B = `${'b'.repeat(20)}0123456789abcdef`
const VISITOR = {
  ipAddress: '81.2.69.160',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
}
const ROUTE = '/api/server/offer-searches'

type H = Awaited<ReturnType<typeof fakeHarness>>
let h: H | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function harness(env: Record<string, string> = {}) {
  // The publisher's server is a private peer with its own (non-browser) user agent.
  h = await fakeHarness({ SERVER_API_KEYS: `${KEY_A},${KEY_B}`, ...env }, {}, () => '10.1.2.3')
  return h
}

function post(body: unknown, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'node',
      authorization: `Bearer ${KEY_A}`,
      ...headers,
    },
    body: JSON.stringify(body),
  }
}

describe('POST /api/server/offer-searches', () => {
  it('sends exactly the visitor as sessionInformation and answers { accessToken, rateTable } for attach', async () => {
    const { request, upstream } = await harness()
    const res = await request(
      ROUTE,
      post({
        visitor: VISITOR,
        search: {
          personalInformation: { zipCode: '94107' },
          sessionInformation: { ipAddress: '6.6.6.6', userAgent: 'spoofed' },
        },
      }),
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const created = createdSearchSchema.parse(await res.json())
    expect(created.rateTable.uuid).toBe(CREATED_UUID)
    const sent = upstream.requests.find((r) => r.method === 'POST')
    expect(JSON.parse(sent?.body ?? '{}').sessionInformation).toEqual(VISITOR)
    expect(JSON.parse(sent?.body ?? '{}').personalInformation).toEqual({ zipcode: '94107' })

    // The widget attaches with the token and polls through the ordinary route.
    const poll = await request(`/api/offer-searches/${CREATED_UUID}`, {
      headers: { ...WIDGET, 'x-offer-access-token': created.accessToken },
    })
    expect(poll.status).toBe(200)
  })

  it('is off with a 404 that names SERVER_API_KEYS while no key is set', async () => {
    h = await fakeHarness({}, {}, () => '10.1.2.3')
    const res = await h.request(ROUTE, post({ visitor: VISITOR }))
    expect(res.status).toBe(404)
    expect((await res.json()).message).toContain('SERVER_API_KEYS')
    expect(h.upstream.requests).toHaveLength(0)
  })

  it.each([
    ['no Authorization', {} as Record<string, string>],
    ['a wrong key', { authorization: `Bearer ${'c'.repeat(36)}` }],
    ['a key prefix', { authorization: `Bearer ${KEY_A.slice(0, 20)}` }],
    ['Basic auth', { authorization: `Basic ${KEY_A}` }],
  ])('refuses %s with 401 and never logs a key', async (_name, headers) => {
    const { request, upstream, logs, answers } = await harness()
    const init = post({ visitor: VISITOR })
    const { authorization: _drop, ...rest } = init.headers
    const res = await request(ROUTE, { ...init, headers: { ...rest, ...headers } })
    expect(res.status).toBe(401)
    expect((await res.json()).code).toBe('unauthorized')
    expect(res.headers.get('www-authenticate')).toContain('Bearer')
    expect(upstream.requests).toHaveLength(0)
    await request(ROUTE, post({ visitor: VISITOR }))
    for (const line of [...logs, ...answers]) {
      expect(line).not.toContain(KEY_A)
      expect(line).not.toContain(KEY_B)
    }
  })

  it('refuses any request with an Origin header, preflights included, with 403 and no CORS headers', async () => {
    const { request, upstream } = await harness({ ALLOWED_ORIGINS: 'https://publisher.example' })
    const browser = await request(ROUTE, post({ visitor: VISITOR }, { origin: 'https://publisher.example' }))
    expect(browser.status).toBe(403)
    expect(browser.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await request(ROUTE, {
      method: 'OPTIONS',
      headers: { origin: 'https://publisher.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(upstream.requests).toHaveLength(0)
  })

  it.each([
    ['a private address', { ...VISITOR, ipAddress: '10.0.0.8' }, 'visitor.ipAddress'],
    ['loopback', { ...VISITOR, ipAddress: '127.0.0.1' }, 'visitor.ipAddress'],
    // IPv4-compatible loopback: ipaddr.js alone calls `::7f00:1` unicast.
    ['IPv4-compatible loopback', { ...VISITOR, ipAddress: '::127.0.0.1' }, 'visitor.ipAddress'],
    ['IPv4-mapped private', { ...VISITOR, ipAddress: '::ffff:10.0.0.8' }, 'visitor.ipAddress'],
    ['a documentation address', { ...VISITOR, ipAddress: '2001:db8::1' }, 'visitor.ipAddress'],
    ['not an address', { ...VISITOR, ipAddress: 'localhost' }, 'visitor.ipAddress'],
    ['an empty user agent', { ...VISITOR, userAgent: '' }, 'visitor.userAgent'],
    ['the server’s own user agent', { ...VISITOR, userAgent: 'node' }, 'visitor.userAgent'],
    ['an HTTP library', { ...VISITOR, userAgent: 'axios/1.7.2' }, 'visitor.userAgent'],
    ['an unknown visitor field', { ...VISITOR, cookie: 'x' }, 'visitor'],
  ])('refuses %s with a 400 naming the field', async (_name, visitor, field) => {
    const { request, upstream } = await harness()
    const res = await request(ROUTE, post({ visitor, search: {} }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field)
    expect(upstream.requests).toHaveLength(0)
  })

  it('refuses a missing visitor and an invalid search, naming the field', async () => {
    const { request } = await harness()
    const noVisitor = await (await request(ROUTE, post({ search: {} }))).json()
    expect(noVisitor.errors[0].field).toBe('visitor')
    const badZip = await (
      await request(ROUTE, post({ visitor: VISITOR, search: { personalInformation: { zipCode: 'abc' } } }))
    ).json()
    expect(badZip.errors[0].field).toBe('personalInformation.zipCode')
  })

  it('outside sandbox mode refuses a loopback visitor; in sandbox mode takes it, so a local setup can try it', async () => {
    const { request, upstream } = await harness()
    expect((await request(ROUTE, post({ visitor: { ...VISITOR, ipAddress: '127.0.0.1' } }))).status).toBe(400)
    const sandbox = buildHarness(
      { SERVER_API_KEYS: KEY_A },
      { upstreamBaseUrl: upstream.url, rateLimit: false },
      () => '127.0.0.1',
    )
    expect(sandbox.config.sandboxMode).toBe(true)
    const local = await sandbox.request(ROUTE, post({ visitor: { ...VISITOR, ipAddress: '::1' } }))
    await sandbox.close()
    expect(local.status).toBe(201)
    const sent = upstream.requests.filter((r) => r.method === 'POST')
    expect(sent).toHaveLength(1)
    expect(JSON.parse(sent[0]?.body ?? '{}').sessionInformation.ipAddress).toBe('::1')
  })

  it('limits each key on its own', async () => {
    const { request } = await harness({ SERVER_RATE_LIMIT_POINTS: '2' })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await request(ROUTE, post({ visitor: VISITOR }))).status)
    expect(statuses).toEqual([201, 201, 429])
    const other = await request(ROUTE, post({ visitor: VISITOR }, { authorization: `Bearer ${KEY_B}` }))
    expect(other.status).toBe(201)
  })
})

describe('createServerSearch', () => {
  it('creates the search in-process through createBff(...).fetch and returns attach', async () => {
    const { app, upstream } = await harness()
    const search = await createServerSearch({
      endpoint: 'http://bff.internal',
      apiKey: KEY_A,
      visitor: VISITOR,
      search: { personalInformation: { zipCode: '94107' } },
      fetch: (req) => app.fetch(req),
    })
    expect(search.attach).toEqual({ uuid: CREATED_UUID, accessToken: search.accessToken })
    expect(JSON.parse(upstream.requests[0]?.body ?? '{}').sessionInformation).toEqual(VISITOR)
  })

  it('throws ServerSearchError with the BFF’s field errors', async () => {
    const { app } = await harness()
    const error = await createServerSearch({
      endpoint: 'http://bff.internal',
      apiKey: KEY_A,
      visitor: { ...VISITOR, userAgent: 'curl/8.5.0' },
      fetch: (req) => app.fetch(req),
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServerSearchError)
    expect((error as ServerSearchError).status).toBe(400)
    expect((error as Error).message).toContain('visitor.userAgent')
  })

  it.each([
    ['', KEY_A, /endpoint must be the BFF’s absolute http\(s\) URL.*OFFERS_BFF_URL/],
    ['ftp://bff.internal', KEY_A, /endpoint must be/],
    ['http://bff.internal', '', /apiKey is empty.*SERVER_API_KEYS.*OFFERS_SERVER_KEY/],
  ])(
    'an unusable endpoint (%j) or key is a ServerSearchError naming the fix, and no request',
    async (endpoint, apiKey, message) => {
      const requests: Request[] = []
      const error = await createServerSearch({
        endpoint,
        apiKey,
        visitor: VISITOR,
        fetch: (req) => {
          requests.push(req)
          return new Response(null, { status: 500 })
        },
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServerSearchError)
      expect((error as ServerSearchError).status).toBe(0)
      expect((error as Error).message).toMatch(message)
      expect(requests).toEqual([])
    },
  )
})

describe('server route rules', () => {
  it('SERVER_API_KEYS: a short key stops the start, naming the variable without its value', () => {
    const error = (() => {
      try {
        loadConfig({ SERVER_API_KEYS: `${KEY_A},short-secret-value` })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain('SERVER_API_KEYS: key 2')
    expect((error as Error).message).not.toContain('short-secret-value')
    expect((error as Error).message).not.toContain(KEY_A)
  })

  it.each([
    ['81.2.69.160', true],
    ['2a00:1450:4001:82b::200e', true],
    ['::ffff:81.2.69.160', true],
    ['192.168.1.4', false],
    ['100.64.0.1', false],
    ['169.254.1.1', false],
    ['fd00::1', false],
    ['::1', false],
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::ffff:127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['127.0.0.1', false],
    ['localhost', false],
  ])('isPublicAddress(%s) is %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected)
  })

  it.each([
    [UA, true],
    ['MyInsuranceApp/3.2 CFNetwork/1490 Darwin/23.2.0', true],
    ['node', false],
    ['undici', false],
    ['python-requests/2.31', false],
    ['Go-http-client/1.1', false],
    ['Mozilla/5.0\u0000', false],
    ['', false],
  ])('isBrowserLikeUserAgent(%j) is %s', (ua, expected) => {
    expect(isBrowserLikeUserAgent(ua)).toBe(expected)
  })
})
