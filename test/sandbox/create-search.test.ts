import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NOT_INSURED, rateTableSchema, upstreamErrorBodySchema } from '../../src/contract/offer-search.ts'
import { CARRIERS } from '../../src/sandbox/carriers.ts'
import { errorFields, harness, headers, validBody } from './support/sandbox-tests.ts'

const post = (h: ReturnType<typeof harness>, body: string | undefined) =>
  h.sandbox.app.request('/test/offerSearches/', { method: 'POST', headers: headers(), body })

describe('POST /offerSearches/ body (docs/offer-search-api.md: "unparseable JSON ... gives 400")', () => {
  for (const text of ['', '{', '{"productTypes": [}', 'productTypes=AutomobileInsurance', "{'a':1}"]) {
    it(`answers 400 naming (body) for unparseable JSON ${JSON.stringify(text)}`, async () => {
      const response = await post(harness(), text)
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(upstreamErrorBodySchema.parse(body).errors[0]?.field).toBe('(body)')
    })
  }

  it('answers 400 for JSON that is not an object', async () => {
    for (const text of ['[]', '"x"', '42', 'null']) {
      const response = await post(harness(), text)
      expect(response.status, text).toBe(400)
      expect(await errorFields(response)).toEqual(['(body)'])
    }
  })

  it('creates a rate table: 201 with a body that matches the contract and a Location to poll', async () => {
    const h = harness()
    const response = await h.create()
    expect(response.status).toBe(201)
    const table = rateTableSchema.parse(await response.json())
    expect(response.headers.get('location')).toBe(`/test/offerSearches/${table.uuid}`)
    expect(table.createdAt).toBe(new Date(h.at()).toISOString())
    expect(table.uuid).not.toBe(table.leadUuid)
  })
})

describe('POST /offerSearches/ required fields (docs/offer-search-api.md field table: "required")', () => {
  const required = [
    ['productTypes'],
    ['sessionInformation', 'ipAddress'],
    ['sessionInformation', 'userAgent'],
  ] as const

  function without(paths: readonly (readonly string[])[]) {
    const body = structuredClone(validBody()) as Record<string, Record<string, unknown>>
    for (const path of paths) {
      if (path.length === 1) delete body[path[0] as string]
      else delete body[path[0] as string]?.[path[1] as string]
    }
    return body
  }

  it('any body missing required fields gives 400 naming each missing field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray([...required], { minLength: 1 }), async (missing) => {
        const response = await post(harness(), JSON.stringify(without(missing)))
        expect(response.status).toBe(400)
        const fields = await errorFields(response)
        expect(fields.sort()).toEqual(missing.map((path) => path.join('.')).sort())
      }),
    )
  })

  it('a body without sessionInformation names both of its required fields', async () => {
    const body = validBody()
    delete body.sessionInformation
    const response = await post(harness(), JSON.stringify(body))
    expect(response.status).toBe(400)
    expect(await errorFields(response)).toEqual([
      'sessionInformation.ipAddress',
      'sessionInformation.userAgent',
    ])
  })

  it('names the field and says it is required', async () => {
    const response = await post(harness(), JSON.stringify(without([['sessionInformation', 'userAgent']])))
    const body = upstreamErrorBodySchema.parse(await response.json())
    expect(body.errors).toEqual([
      { field: 'sessionInformation.userAgent', reason: 'sessionInformation.userAgent is required' },
    ])
  })

  it('rejects wrongly typed fields with the contract schema, naming them', async () => {
    const body = validBody()
    body.sessionInformation = { ipAddress: 'not-an-ip', userAgent: 'UA' }
    body.productTypes = []
    const response = await post(harness(), JSON.stringify(body))
    expect(response.status).toBe(400)
    expect((await errorFields(response)).sort()).toEqual(['productTypes', 'sessionInformation.ipAddress'])
  })

  it('productTypes must include AutomobileInsurance (docs/offer-search-api.md: "Use `[AutomobileInsurance]`")', async () => {
    const body = { ...validBody(), productTypes: ['HomeInsurance'] }
    const response = await post(harness(), JSON.stringify(body))
    expect(response.status).toBe(400)
    expect(await errorFields(response)).toEqual(['productTypes'])
  })
})

describe('POST /offerSearches/ currentIssuer (docs/offer-search-api.md: "Must be an issuer `id` from the issuers list, or `notinsured`")', () => {
  it('accepts notinsured and every issuer id', async () => {
    const h = harness()
    for (const id of [NOT_INSURED, ...CARRIERS.map((c) => c.id)]) {
      const body = { ...validBody(), autoInsuranceInformation: { currentIssuer: id } }
      const response = await h.create(body)
      expect(response.status, id).toBe(201)
    }
  })

  it('answers 400 naming the field for anything else, including an issuer name', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 30 }),
          fc.constantFrom('Granite Mutual', 'NotInsured', 'not insured', 'GRANITE-MUTUAL'),
        ),
        async (issuer) => {
          fc.pre(issuer !== NOT_INSURED && !CARRIERS.some((c) => c.id === issuer))
          const body = { ...validBody(), autoInsuranceInformation: { currentIssuer: issuer } }
          const response = await post(harness(), JSON.stringify(body))
          expect(response.status).toBe(400)
          expect(await errorFields(response)).toEqual(['autoInsuranceInformation.currentIssuer'])
        },
      ),
      { numRuns: 50 },
    )
  })
})
