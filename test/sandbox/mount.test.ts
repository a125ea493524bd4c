import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { RateTable } from '../../src/contract/offer-search.ts'
import { createSandbox, seededRandom } from '../../src/sandbox/index.ts'
import { headers, TOKENS, validBody } from './support/sandbox-tests.ts'

const createVia = async (app: Hono, url: string) =>
  app.request(url, { method: 'POST', headers: headers(), body: JSON.stringify(validBody()) })

describe('mounted in another app (the BFF does app.route("/sandbox", sandbox.app))', () => {
  it('serves the API under the mount path and points URLs at it, derived from the request', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, random: seededRandom(3) })
    const parent = new Hono().route('/sandbox', sandbox.app)
    const response = await createVia(parent, 'http://127.0.0.1:8787/sandbox/test/offerSearches/')
    expect(response.status).toBe(201)
    const table = (await response.json()) as RateTable
    expect(response.headers.get('location')).toBe(`/sandbox/test/offerSearches/${table.uuid}`)
    const pixel = table.offers[0]?.impressionTrackingPixelUrls?.[0] as string
    expect(pixel.startsWith('http://127.0.0.1:8787/sandbox/pixels/')).toBe(true)
    expect(table.pendingResponses[0]?.partner.imageUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:8787\/sandbox\/logos\//,
    )
    expect((await parent.request(pixel)).status).toBe(200)
    expect(sandbox.pixelHits()).toEqual({ [pixel]: 1 })
  })

  it('keeps its strict answers when mounted (401, 400 with an error body)', async () => {
    const sandbox = createSandbox({ tokens: TOKENS })
    const parent = new Hono().route('/sandbox', sandbox.app)
    const noToken = await parent.request('/sandbox/test/leads/autoInsurance/issuers')
    expect(noToken.status).toBe(401)
    expect(await noToken.json()).toEqual({ errors: [expect.objectContaining({ field: 'Authorization' })] })
    const badUuid = await parent.request('/sandbox/production/offerSearches/nope', {
      headers: headers('production'),
    })
    expect(badUuid.status).toBe(400)
  })

  it('uses basePath when given', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, basePath: '/up/' })
    const parent = new Hono().route('/up', sandbox.app)
    const table = (await (
      await createVia(parent, 'http://h.example/up/test/offerSearches/')
    ).json()) as RateTable
    expect(table.offers[0]?.url.startsWith('http://h.example/up/landing/')).toBe(true)
  })

  it('uses publicBaseUrl when given (e.g. behind a proxy)', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, publicBaseUrl: 'https://demo.example.com/sandbox/' })
    const table = (await (await createVia(sandbox.app, '/test/offerSearches/')).json()) as RateTable
    expect(table.offers[0]?.impressionTrackingPixelUrls?.[0]).toMatch(
      /^https:\/\/demo\.example\.com\/sandbox\/pixels\/[0-9a-f-]+\/1\.gif$/,
    )
    const issuers = (await (
      await sandbox.app.request('/test/leads/autoInsurance/issuers', { headers: headers() })
    ).json()) as { logoImageUrl: string }[]
    expect(issuers[0]?.logoImageUrl.startsWith('https://demo.example.com/sandbox/logos/carriers/')).toBe(true)
  })

  it('describes itself at its root', async () => {
    const sandbox = createSandbox({ tokens: TOKENS })
    const index = (await (await sandbox.app.request('http://localhost:9/')).json()) as {
      environments: Record<string, string>
    }
    expect(index.environments).toEqual({
      test: 'http://localhost:9/test',
      production: 'http://localhost:9/production',
    })
  })
})
