import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { API_VERSION_PATTERN, CURRENT_API_VERSION } from '../../src/contract/offer-search.ts'
import { createSandbox } from '../../src/sandbox/index.ts'
import { errorFields, harness, headers, TOKENS } from './support/sandbox-tests.ts'

const issuers = '/test/leads/autoInsurance/issuers'

describe('sandbox Api-Version (docs/offer-search-api.md: "A missing or invalid header gives 400; a present but unrecognized version string gives 422")', () => {
  it('answers 400 naming Api-Version when the header is missing', async () => {
    const { sandbox } = harness()
    const { 'api-version': _, ...rest } = headers()
    const response = await sandbox.app.request(issuers, { headers: rest })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { errors: { field: string; reason: string }[] }
    expect(body.errors).toEqual([{ field: 'Api-Version', reason: expect.stringMatching(/missing/) }])
    expect(body.errors[0]?.reason).toContain(CURRENT_API_VERSION)
  })

  it('answers 400 naming Api-Version for any malformed value', async () => {
    const { sandbox } = harness()
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 20 })
          // Header values cannot hold control characters, and surrounding spaces are trimmed by HTTP.
          .filter((v) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v) && !API_VERSION_PATTERN.test(v)),
        async (version) => {
          const response = await sandbox.app.request(issuers, {
            headers: headers('test', { 'api-version': version }),
          })
          expect(response.status).toBe(400)
          expect(await errorFields(response)).toEqual(['Api-Version'])
        },
      ),
      { numRuns: 60 },
    )
  })

  it('answers 422 for a well-formed version that is not supported', async () => {
    const { sandbox } = harness()
    await fc.assert(
      fc.asyncProperty(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        async (date) => {
          const version = date.toISOString().slice(0, 10)
          fc.pre(version !== CURRENT_API_VERSION)
          const response = await sandbox.app.request(issuers, {
            headers: headers('test', { 'api-version': version }),
          })
          expect(response.status).toBe(422)
          expect(await errorFields(response)).toEqual(['Api-Version'])
        },
      ),
      { numRuns: 40 },
    )
  })

  it(`accepts the current version ${CURRENT_API_VERSION}, and more when configured`, async () => {
    const sandbox = createSandbox({ tokens: TOKENS, apiVersions: [CURRENT_API_VERSION, '2025-01-01'] })
    for (const version of [CURRENT_API_VERSION, '2025-01-01']) {
      const response = await sandbox.app.request(issuers, {
        headers: headers('test', { 'api-version': version }),
      })
      expect(response.status).toBe(200)
    }
  })
})

describe('sandbox Content-Type (docs/offer-search-api.md "Required headers (every request)": `Content-Type: application/json`)', () => {
  for (const [method, path] of [
    ['GET', issuers],
    ['POST', '/test/offerSearches/'],
    ['GET', '/test/offerSearches/1b4e28ba-2fa1-41d2-883f-0016d3cca427'],
  ] as const) {
    it(`${method} ${path}: 400 naming Content-Type when it is missing`, async () => {
      const { sandbox } = harness()
      const { 'content-type': _, ...rest } = headers()
      const response = await sandbox.app.request(path, {
        method,
        headers: rest,
        body: method === 'POST' ? new Blob(['{}']) : undefined,
      })
      expect(response.status).toBe(400)
      expect(await errorFields(response)).toEqual(['Content-Type'])
    })
  }

  it('400 for another media type', async () => {
    const { sandbox } = harness()
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      const response = await sandbox.app.request(issuers, {
        headers: headers('test', { 'content-type': contentType }),
      })
      expect(response.status, contentType).toBe(400)
    }
  })

  it('accepts parameters and any letter case on application/json', async () => {
    const { sandbox } = harness()
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON']) {
      const response = await sandbox.app.request(issuers, {
        headers: headers('test', { 'content-type': contentType }),
      })
      expect(response.status, contentType).toBe(200)
    }
  })

  it('reports a bad Api-Version and a missing Content-Type together in one 400', async () => {
    const { sandbox } = harness()
    const { 'content-type': _, ...rest } = headers('test', { 'api-version': 'latest' })
    const response = await sandbox.app.request(issuers, { headers: rest })
    expect(response.status).toBe(400)
    expect(await errorFields(response)).toEqual(['Api-Version', 'Content-Type'])
  })
})
