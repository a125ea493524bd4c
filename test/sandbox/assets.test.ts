import { describe, expect, it } from 'vitest'
import { issuerListSchema, type RateTable } from '../../src/contract/offer-search.ts'
import { harness, headers } from './support/sandbox-tests.ts'

describe('pixel sink (docs/offer-search-api.md: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered")', () => {
  it('pixel URLs point back at the sandbox, answer a 1x1 GIF and are counted per URL', async () => {
    const h = harness()
    const table = await h.createTable()
    const urls = table.offers.flatMap((o) => o.impressionTrackingPixelUrls ?? [])
    expect(urls.length).toBeGreaterThanOrEqual(4)
    for (const url of urls) expect(url).toMatch(/^http:\/\/localhost\/pixels\/[0-9a-f-]{36}\/\d+\.gif$/)
    const [first, second] = urls as [string, string]
    const gif = await h.sandbox.app.request(first)
    expect(gif.status).toBe(200)
    expect(gif.headers.get('content-type')).toBe('image/gif')
    expect(gif.headers.get('cache-control')).toBe('no-store')
    const bytes = new Uint8Array(await gif.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 6))).toBe('GIF89a')
    await h.sandbox.app.request(first)
    await h.sandbox.app.request(second, { method: 'POST' })
    expect(h.sandbox.pixelHits()).toEqual({ [first]: 2, [second]: 1 })
  })

  it('exposes the counts as JSON at /pixels/hits (for browser tests) and resets them', async () => {
    const h = harness()
    const table = await h.createTable()
    const url = table.offers[0]?.impressionTrackingPixelUrls?.[0] as string
    await h.sandbox.app.request(url)
    const hits = await h.sandbox.app.request('/pixels/hits')
    expect(hits.headers.get('access-control-allow-origin')).toBe('*')
    expect(await hits.json()).toEqual({ [url]: 1 })
    expect((await h.sandbox.app.request('/pixels/hits', { method: 'DELETE' })).status).toBe(204)
    expect(h.sandbox.pixelHits()).toEqual({})
    await h.sandbox.app.request(url)
    h.sandbox.resetPixelHits()
    expect(h.sandbox.pixelHits()).toEqual({})
  })

  it('does not count paths that are not pixels', async () => {
    const h = harness()
    expect((await h.sandbox.app.request('/pixels/not-a-uuid/1.gif')).status).toBe(404)
    expect((await h.sandbox.app.request('/pixels/1b4e28ba-2fa1-41d2-883f-0016d3cca427/x.png')).status).toBe(
      404,
    )
    expect(h.sandbox.pixelHits()).toEqual({})
  })
})

describe('served images come from the sandbox, never the internet', () => {
  it('every issuer logo is an SVG served by the sandbox', async () => {
    const h = harness()
    const response = await h.sandbox.app.request('/test/leads/autoInsurance/issuers', { headers: headers() })
    const issuers = issuerListSchema.parse(await response.json())
    expect(issuers.length).toBeGreaterThanOrEqual(5)
    for (const issuer of issuers) {
      expect(issuer.logoImageUrl.startsWith('http://localhost/logos/carriers/')).toBe(true)
      const logo = await h.sandbox.app.request(issuer.logoImageUrl)
      expect(logo.headers.get('content-type')).toBe('image/svg+xml')
      expect(await logo.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    }
  })

  it('partner logos, carrier logos and offer links of a rate table all resolve on the sandbox', async () => {
    const h = harness()
    const table: RateTable = await h.createTable()
    const urls = [
      ...table.pendingResponses.map((p) => p.partner.imageUrl),
      ...table.offers.flatMap((o) => [o.financialInstitutionImageUrl, o.url, o.unmonetizedUrl]),
    ]
    for (const url of urls) {
      expect(new URL(url).origin).toBe('http://localhost')
      expect((await h.sandbox.app.request(url)).status, url).toBe(200)
    }
  })

  it('answers 404 for an unknown logo', async () => {
    const h = harness()
    expect((await h.sandbox.app.request('/logos/carriers/nobody.svg')).status).toBe(404)
    expect((await h.sandbox.app.request('/logos/others/granite-mutual.svg')).status).toBe(404)
  })
})
