/**
 * @module The embed on hostile pages: a stylesheet that restyles `*`, `div`, `a`, `img` and `button`
 * changes nothing inside the widget; a strict CSP without 'unsafe-inline' or 'unsafe-eval' allows both
 * ways in (the bundle by `<script async src>` with data attributes, and the inline snippet by its sha256
 * hash); the page gains one global; double mount warns; unmount empties the shadow root.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../../src/server/start-server.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { requireBuild, startTestServer, type TestPage } from './support/server.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'"

const HOSTILE_CSS = `
* { font-family: "Comic Sans MS", cursive !important; color: red !important; letter-spacing: 4px !important;
    text-transform: uppercase !important; line-height: 3 !important; box-sizing: content-box !important; }
div { padding: 30px; border: 5px dashed magenta; background: yellow; margin: 20px; }
a { color: lime !important; text-decoration: line-through !important; font-size: 30px !important; }
img { width: 300px !important; height: 12px !important; filter: blur(4px); }
button { all: unset; background: black !important; font-size: 40px !important; }
h2, h3, p, ul, li { margin: 50px !important; }`

/** Computed styles of elements inside the widget, to compare a neutral page with a hostile one. */
const PROBES = ['.ow-root', '.ow-heading', '.ow-card', '.ow-headline', '.ow-cta', '.ow-logo', '.ow-points li']
const PROPS = [
  'font-family',
  'color',
  'letter-spacing',
  'text-transform',
  'line-height',
  'padding',
  'margin',
  'border-top',
  'background-color',
  'font-size',
  'text-decoration-line',
  'filter',
]

let server: RunningServer
let browser: Browser
let snippetHash = ''

function page(body: string, csp = CSP, css = ''): TestPage {
  return {
    html: `<!doctype html><html lang="en"><head><title>test</title>${css}</head><body><main><h1>Publisher</h1>${body}</main></body></html>`,
    headers: { 'Content-Security-Policy': csp },
  }
}

beforeAll(async () => {
  const manifest = requireBuild()
  const bundle = `<script async src="/embed/${manifest.file}" integrity="${manifest.integrity}" crossorigin="anonymous"></script>`
  const mountPoint = '<div id="w" data-offer-widget data-zip-code="00001"></div>'
  const { snippetFor } = await import('../../src/publisher/snippet.ts')
  const script = snippetFor(manifest)
  const { createHash } = await import('node:crypto')
  snippetHash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`
  server = await startTestServer({
    '/favicon.ico': { html: '', type: 'image/x-icon' },
    '/e2e/hostile.css': { html: HOSTILE_CSS, type: 'text/css' },
    '/e2e/neutral.html': page(`${mountPoint}${bundle}`),
    '/e2e/hostile.html': page(
      `${mountPoint}${bundle}`,
      CSP,
      '<link rel="stylesheet" href="/e2e/hostile.css">',
    ),
    '/e2e/snippet.html': page(
      `${mountPoint}<script>${script}</script>`,
      `${CSP.replace("script-src 'self'", `script-src 'self' ${snippetHash}`)}`,
    ),
    '/e2e/snippet-unhashed.html': page(`${mountPoint}<script>${script}</script>`),
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function open(path: string): Promise<{ page: Page; errors: string[]; warnings: string[] }> {
  const p = await browser.context.newPage()
  const errors = collectErrors(p)
  const warnings: string[] = []
  p.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text())
  })
  await p.addInitScript(() => {
    ;(window as unknown as { __globals: string[] }).__globals = Object.getOwnPropertyNames(window)
  })
  await p.goto(`${server.url}${path}`)
  return { page: p, errors, warnings }
}

function styles(p: Page) {
  return p.evaluate(
    ([probes, props]) => {
      const shadow = document.querySelector('#w')?.shadowRoot
      return Object.fromEntries(
        (probes as string[]).map((sel) => {
          const el = shadow?.querySelector(sel)
          const cs = el ? getComputedStyle(el) : undefined
          return [
            sel,
            Object.fromEntries((props as string[]).map((prop) => [prop, cs?.getPropertyValue(prop)])),
          ]
        }),
      )
    },
    [PROBES, PROPS] as const,
  )
}

describe('hostile page and strict CSP', () => {
  it('a hostile stylesheet changes nothing inside the widget (both pages under a strict CSP)', async () => {
    const neutral = await open('/e2e/neutral.html')
    const hostile = await open('/e2e/hostile.html')
    await Promise.all([waitForStatus(neutral.page, ['complete']), waitForStatus(hostile.page, ['complete'])])
    expect((await readWidget(hostile.page))?.carriers.length).toBe(3) // the first three (initialOffers) of six
    const before = await styles(neutral.page)
    const after = await styles(hostile.page)
    expect(before['.ow-cta']?.['font-family']).not.toContain('Comic')
    expect(after).toEqual(before)
    // The hostile sheet did apply to the page itself, so the comparison is not vacuous.
    expect(
      await hostile.page.evaluate(() => getComputedStyle(document.querySelector('h1') as Element).color),
    ).toBe('rgb(255, 0, 0)')
    expect(neutral.errors).toEqual([])
    expect(hostile.errors).toEqual([])
    await screenshot(hostile.page, 'hostile-css')
    await neutral.page.close()
    await hostile.page.close()
  })

  it('the bundle alone, by <script async src> and data attributes, defines only window.OfferWidget', async () => {
    const { page: p, errors, warnings } = await open('/e2e/neutral.html')
    await waitForStatus(p, ['complete'])
    const added = await p.evaluate(() => {
      const before = new Set((window as unknown as { __globals: string[] }).__globals)
      return Object.getOwnPropertyNames(window).filter((name) => !before.has(name) && name !== '__globals')
    })
    expect(added).toEqual(['OfferWidget'])

    // A second mount on the same element warns, naming it, and changes nothing.
    await p.evaluate(() =>
      (window as unknown as { OfferWidget: { mount(s: string): unknown } }).OfferWidget.mount('#w'),
    )
    expect(warnings).toContainEqual(expect.stringContaining('<div#w> already has a widget'))
    // Unmount empties the shadow root.
    const left = await p.evaluate(() => {
      ;(window as unknown as { OfferWidget: { unmount(s: string): boolean } }).OfferWidget.unmount('#w')
      return document.querySelector('#w')?.shadowRoot?.childNodes.length
    })
    expect(left).toBe(0)
    expect(errors).toEqual([])
    await p.close()
  })

  it('the inline snippet runs under the CSP with its sha256 hash, and is blocked without it', async () => {
    const hashed = await open('/e2e/snippet.html')
    await waitForStatus(hashed.page, ['complete'])
    expect((await readWidget(hashed.page))?.carriers.length).toBe(3) // the first three (initialOffers) of six
    expect(hashed.errors).toEqual([])
    await screenshot(hashed.page, 'csp-snippet')
    await hashed.page.close()

    const blocked = await open('/e2e/snippet-unhashed.html')
    await blocked.page.waitForLoadState('load')
    expect(await blocked.page.evaluate(() => 'OfferWidget' in window)).toBe(false)
    expect(blocked.errors).toContainEqual(expect.stringContaining('Content Security Policy'))
    await blocked.page.close()
  })
})
