/**
 * @module Search bodies parsed with a depth limit and a strict schema: deep nesting, unknown nested
 * fields, control characters and prototype keys are refused with a 400 naming them, and nothing of such a
 * body reaches the upstream. The bounded parser itself: test/http/json-body.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { fakeHarness } from './support/fake-harness.ts'
import { postJson } from './support/harness.ts'

describe('POST /api/offer-searches with hostile bodies', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'a 5,000-deep array',
      JSON.stringify({ clientTags: { subId: '@' } }).replace('"@"', `${'['.repeat(5000)}${']'.repeat(5000)}`),
      /deeper than/,
    ],
    [
      'an unknown nested field',
      JSON.stringify({ personalInformation: { zipcode: '94105', extra: 'x' } }),
      /extra/,
    ],
    ['an unknown top-level field', JSON.stringify({ productVersions: ['x'] }), /productVersions/],
    [
      'an unknown field two levels down',
      JSON.stringify({
        autoInsuranceInformation: { policyHolderInformation: { isMilitary: true, rank: 3 } },
      }),
      /rank/,
    ],
    [
      'a control character',
      JSON.stringify({ autoInsuranceInformation: { currentIssuer: 'geico\u0000\u001b[2J' } }),
      /control characters/,
    ],
    [
      'a control character in a tag',
      JSON.stringify({ clientTags: { subId: ['a\nb'] } }),
      /control characters/,
    ],
    ['constructor.prototype keys', '{"constructor":{"prototype":{"isAdmin":true}}}', /constructor/],
    ['a __proto__ key', '{"personalInformation":{"__proto__":{"zipcode":"94105"}}}', /__proto__/],
  ]

  for (const [name, body, named] of cases) {
    it(`refuses ${name} with a 400 naming it, and forwards nothing`, async () => {
      const h = await fakeHarness()
      const response = await h.request('/api/offer-searches', postJson(body))
      expect(response.status).toBe(400)
      expect(JSON.stringify(await response.json())).toMatch(named)
      expect(h.upstream.requests).toHaveLength(0)
      await h.close()
    })
  }

  it('forwards a full, well-formed search with exactly the known fields', async () => {
    const h = await fakeHarness()
    const search = {
      productTypes: ['AutomobileInsurance'],
      sessionInformation: { ipAddress: '6.6.6.6', userAgent: 'spoofed', extra: { deep: [1] } },
      autoInsuranceInformation: {
        currentIssuer: 'geico',
        numberOfVehicles: 2,
        policyHolderInformation: { isHomeOwner: true, isMilitary: false },
      },
      personalInformation: { zipcode: '94105', dateOfBirth: '1990-04-17' },
      clientTags: { subId: ['spring', 'sidebar'] },
    }
    const response = await h.request('/api/offer-searches', postJson(search))
    expect(response.status).toBe(201)
    const sent = JSON.parse(h.upstream.requests[0]?.body ?? '{}')
    expect(Object.keys(sent).sort()).toEqual([
      'autoInsuranceInformation',
      'clientTags',
      'personalInformation',
      'productTypes',
      'sessionInformation',
    ])
    expect(sent.autoInsuranceInformation).toEqual(search.autoInsuranceInformation)
    expect(Object.keys(sent.sessionInformation).sort()).toEqual(['ipAddress', 'userAgent'])
    await h.close()
  })
})
