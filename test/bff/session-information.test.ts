/**
 * @module What reaches the upstream. docs/offer-search-api.md: sessionInformation "must be taken from the live end-user
 * session and passed through accurately": values sent by the browser are ignored, spoofed
 * X-Forwarded-For never wins, and the ZIP goes under the configured key.
 */
import { describe, expect, it } from 'vitest'
import { FAKE_TOKEN, fakeHarness } from './support/fake-harness.ts'
import { PEER, postJson, UA, WIDGET } from './support/harness.ts'

async function sent(
  env: Record<string, string>,
  peer: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const h = await fakeHarness(env, {}, () => peer)
  const res = await h.request('/api/offer-searches', postJson(body, { ...WIDGET, ...headers }))
  const request = h.upstream.requests.find((r) => r.method === 'POST')
  await h.close()
  return {
    status: res.status,
    upstream: request ? JSON.parse(request.body) : undefined,
    headers: request?.headers,
  }
}

describe('POST /api/offer-searches: what the upstream receives', () => {
  it('builds sessionInformation from the socket and User-Agent, ignoring the browser’s values', async () => {
    const { status, upstream, headers } = await sent(
      {},
      PEER,
      {
        sessionInformation: { ipAddress: '6.6.6.6', userAgent: 'spoofed' },
      },
      { 'x-forwarded-for': '6.6.6.6' },
    )
    expect(status).toBe(201)
    expect(upstream.sessionInformation).toEqual({ ipAddress: PEER, userAgent: UA })
    expect(upstream.productTypes).toEqual(['AutomobileInsurance'])
    expect(headers?.authorization).toBe(`Bearer ${FAKE_TOKEN}`)
    expect(headers?.['api-version']).toBe('2026-02-25')
  })

  it.each([
    // [case, TRUST_PROXY, the peer socket, X-Forwarded-For]
    [
      'through a trusted hop, forwards the rightmost untrusted X-Forwarded-For address',
      '10.0.0.0/8',
      '10.0.0.5',
      '6.6.6.6, 198.51.100.23',
    ],
    [
      'with a hop count, never the leftmost (client-written) entry',
      '1',
      '::ffff:10.0.0.5',
      '6.6.6.6, ::ffff:198.51.100.23',
    ],
  ])('%s', async (_case, trust, peer, forwardedFor) => {
    const { upstream } = await sent({ TRUST_PROXY: trust }, peer, {}, { 'x-forwarded-for': forwardedFor })
    expect(upstream.sessionInformation.ipAddress).toBe('198.51.100.23')
  })

  it('sends the ZIP under the configured key (ZIP_CODE_KEY), whichever spelling the browser used', async () => {
    const lower = await sent({}, PEER, { personalInformation: { zipCode: '94105' } })
    expect(lower.upstream.personalInformation).toEqual({ zipcode: '94105' })
    const camel = await sent({ ZIP_CODE_KEY: 'zipCode' }, PEER, { personalInformation: { zipcode: '94105' } })
    expect(camel.upstream.personalInformation).toEqual({ zipCode: '94105' })
  })

  it('forwards only known fields: an unknown one is refused, never forwarded', async () => {
    const { upstream } = await sent({}, PEER, {
      clientTags: { subId: ['campaign-1'] },
      autoInsuranceInformation: { currentIssuer: 'notinsured', numberOfVehicles: 2 },
    })
    expect(Object.keys(upstream).sort()).toEqual(
      ['autoInsuranceInformation', 'clientTags', 'productTypes', 'sessionInformation'].sort(),
    )
    const h = await fakeHarness()
    const refused = await h.request('/api/offer-searches', postJson({ partnerOverride: 'x' }))
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toMatch(/partnerOverride/)
    expect(h.upstream.requests).toHaveLength(0)
    await h.close()
  })

  it('a failed upstream POST does not leave a token or rate table behind: it maps to the widget error', async () => {
    const h = await fakeHarness()
    h.upstream.script({ status: 401 })
    const res = await h.request('/api/offer-searches', postJson({}))
    expect(res.status).toBe(502)
    expect(await res.json()).toMatchObject({ code: 'upstream_misconfigured' })
    expect(h.logs.join('')).toMatch(/ENGINE_TOKEN/)
    await h.close()
  })
})
