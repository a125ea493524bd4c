/**
 * @module `/demo.html?ssr=1`: the BFF renders the demo's widget for the visitor requesting the page, a search
 * made with that request's own address and user agent, and falls back to the client-rendered page when it
 * cannot (no ZIP, the per-IP limit spent, the upstream down).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AUTO_PLACEHOLDER, withEmbedAssets } from '../../src/server/embed-assets.ts'
import { serverRenderedDemo } from '../../src/server/server-rendered-demo.ts'
import { renderWidgetHtml } from '../../src/ssr/render-widget-html.tsx'
import { CREATED_UUID, fakeHarness } from '../bff/support/fake-harness.ts'
import { PEER, UA } from '../bff/support/harness.ts'

const FILE = 'offer-widget.0.1.0-0123456789.js'

function staticRoot() {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-demo-'))
  mkdirSync(join(dir, 'dist/embed'), { recursive: true })
  mkdirSync(join(dir, 'public'))
  writeFileSync(
    join(dir, 'dist/embed/manifest.json'),
    JSON.stringify({ version: '0.1.0', file: FILE, integrity: 'sha384-abc' }),
  )
  writeFileSync(join(dir, 'public/demo.html'), `<!doctype html><main>${AUTO_PLACEHOLDER}</main>`)
  return dir
}

type H = Awaited<ReturnType<typeof fakeHarness>>
let h: H | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function demo(env: Record<string, string> = {}) {
  let render: ReturnType<typeof serverRenderedDemo> | undefined
  h = await fakeHarness(env, {
    rateLimit: { points: 2 },
    staticFiles: withEmbedAssets(undefined, {
      root: staticRoot(),
      renderDemoWidget: (c, params) => render?.(c, params) ?? Promise.resolve(undefined),
    }),
  })
  render = serverRenderedDemo(h.app.services, renderWidgetHtml)
  const harness = h
  return (query: string) => harness.request(`/demo.html${query}`, { headers: { 'user-agent': UA } })
}

describe('/demo.html?ssr=1', () => {
  it('renders the widget for this visitor into a declarative shadow root, with the snippet to hydrate it', async () => {
    const get = await demo()
    const res = await get('?ssr=1&zip=00001&theme=dark')
    const html = await res.text()
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(html).toContain('<div data-offer-widget id="offer-widget"><template shadowrootmode="open">')
    expect(html).toContain('data-ow-theme="dark"')
    expect(html).toContain(`"uuid":"${CREATED_UUID}"`)
    expect(html).toContain(`/embed/${FILE}`)
    // The visitor is the page request's own session.
    const sent = JSON.parse(h?.upstream.requests.find((r) => r.method === 'POST')?.body ?? '{}')
    expect(sent.sessionInformation).toEqual({ ipAddress: PEER, userAgent: UA })
    expect(sent.personalInformation).toEqual({ zipcode: '00001' })
  })

  it('without ?ssr=1, or without a ZIP, serves the client-rendered mount point and creates nothing', async () => {
    const get = await demo()
    for (const query of ['?zip=00001', '?ssr=1']) {
      const html = await (await get(query)).text()
      expect(html).toContain('<div id="offer-widget" data-offer-widget')
      expect(html).not.toContain('shadowrootmode')
    }
    expect(h?.upstream.requests).toHaveLength(0)
  })

  it('falls back to the client page once the per-IP limit is spent, and when the upstream fails', async () => {
    const get = await demo()
    const pages = [
      await get('?ssr=1&zip=00001'),
      await get('?ssr=1&zip=00001'),
      await get('?ssr=1&zip=00001'),
    ]
    const texts = await Promise.all(pages.map((page) => page.text()))
    expect(texts.map((text) => text.includes('shadowrootmode'))).toEqual([true, true, false])
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200])

    await h?.close()
    const again = await demo()
    h?.upstream.script({ status: 503, body: {} }, { status: 503, body: {} }, { status: 503, body: {} })
    const failed = await again('?ssr=1&zip=00001')
    expect(failed.status).toBe(200)
    expect(await failed.text()).not.toContain('shadowrootmode')
  })
})
