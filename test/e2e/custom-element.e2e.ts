/**
 * @module `<offer-widget>` in Chromium on a publisher's origin, the BFF on another: a plain HTML page with
 * the script-tag bundle (attributes to options, DOM events, an attribute change re-renders, removal
 * unmounts), the same element server-rendered by `renderWidgetHtml({ tag: 'offer-widget' })` and hydrated in
 * place, and a Vue 3 page (Vue installed from npm into a scratch directory at test time) that binds the
 * element's attributes and listens to its events. Every pixel once; no console error.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reservationCss } from '../../src/embed/publisher-snippet.ts'
import { createServerSearch } from '../../src/publisher/create-server-search.ts'
import { loadWidgetRenderer } from '../../src/publisher/widget-renderer.ts'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { removeScratch } from '../package/support/scratch-project.ts'
import { testSecret } from '../support/test-secret.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { REPO_ROOT, requireBuild } from './support/server.ts'
import { observeLayoutShifts, readCls } from './support/widget-page.ts'

const ZIP = zipOfScenario('offers-arriving')
const SERVER_KEY = testSecret('custom element server key')
const UA = 'Mozilla/5.0 (X11; Linux x86_64) custom-element e2e'
const EVENTS = ['search-created', 'offers-shown', 'offer-click', 'complete', 'error']

let bff: RunningServer
let publisher: { url: string; server: Server }
let browser: Browser
let vueDir = ''
const pages = new Map<string, { type: string; body: string }>()

/** Records the element's events on `window.events` (type and detail), set before the bundle runs. */
const RECORD_EVENTS = `<script>window.events=[];for(const t of ${JSON.stringify(EVENTS)})document.addEventListener(t,e=>window.events.push({type:t,detail:e.detail}))</script>`

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`
}

beforeAll(async () => {
  const manifest = requireBuild()
  const server = createServer((request, response) => {
    const found = pages.get(new URL(request.url ?? '/', 'http://x').pathname)
    if (!found) return response.writeHead(404).end()
    response.writeHead(200, { 'content-type': found.type }).end(found.body)
  })
  const url = await new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  )
  publisher = { url, server }
  bff = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      ALLOWED_ORIGINS: url,
      SERVER_API_KEYS: SERVER_KEY,
    }),
    { secondLook: false },
  )
  const bundle = `<script async src="${bff.url}/embed/${manifest.file}" integrity="${manifest.integrity}" crossorigin="anonymous"></script>`

  pages.set('/plain.html', {
    type: 'text/html',
    body: page(
      'Plain HTML',
      `<h1>Car insurance</h1>${RECORD_EVENTS}<offer-widget id="quotes" endpoint="${bff.url}" zip-code="${ZIP}" heading-level="3"></offer-widget>${bundle}`,
    ),
  })

  // README's element with its place reserved: the printed <style> and the class, in an article.
  pages.set('/reserved.html', {
    type: 'text/html',
    body: page(
      'Reserved element',
      `<h1>Car insurance</h1><p>Compare live quotes below.</p><offer-widget class="offer-widget-slot" endpoint="${bff.url}" zip-code="${ZIP}"></offer-widget><p id="below">Text the widget must never push.</p>${bundle}`,
      `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${reservationCss()}</style>`,
    ),
  })

  // What a publisher's server does: a search for this visitor, rendered as the element's shadow root.
  const search = await createServerSearch({
    endpoint: bff.url,
    apiKey: SERVER_KEY,
    visitor: { ipAddress: '81.2.69.160', userAgent: UA },
    search: { personalInformation: { zipCode: ZIP } },
  })
  const render = await loadWidgetRenderer(REPO_ROOT)
  if (!render) throw new Error('e2e: dist/ssr is missing; run npm run build first')
  const html = render({
    tag: 'offer-widget',
    endpoint: bff.url,
    attach: { ...search.attach, rateTable: search.rateTable },
  })
  pages.set('/ssr.html', {
    type: 'text/html',
    body: page('Server-rendered element', `<h1>Car insurance</h1>${RECORD_EVENTS}${html}${bundle}`),
  })

  // Vue 3 from npm, its browser build served by the publisher, the element defined by the bundle.
  vueDir = mkdtempSync(join(tmpdir(), 'offer-widget-vue-'))
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', 'vue@3'], {
    cwd: vueDir,
    stdio: 'pipe',
  })
  pages.set('/vue.js', {
    type: 'text/javascript',
    body: readFileSync(join(vueDir, 'node_modules/vue/dist/vue.esm-browser.prod.js'), 'utf8'),
  })
  const app = `
import { createApp } from '/vue.js'
const app = createApp({
  data: () => ({ endpoint: ${JSON.stringify(bff.url)}, zip: ${JSON.stringify(ZIP)}, theme: 'light', shown: true, count: null }),
  template: \`
    <button id="dark" @click="theme = 'dark'">Dark</button>
    <button id="hide" @click="shown = false">Hide</button>
    <p id="count">{{ count === null ? 'searching' : count + ' offers' }}</p>
    <offer-widget v-if="shown" :endpoint="endpoint" :zip-code="zip" :theme="theme"
      @complete="count = $event.detail.offerCount"></offer-widget>\`,
})
app.config.compilerOptions.isCustomElement = (tag) => tag === 'offer-widget'
app.mount('#app')`
  pages.set('/vue.html', {
    type: 'text/html',
    body: page(
      'Vue page',
      `<h1>Car insurance</h1><div id="app"></div><script type="module">${app}</script>${bundle}`,
    ),
  })
  browser = await launchBrowser()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await bff?.close()
  publisher?.server.close()
  removeScratch(vueDir)
})

async function pixelHits(): Promise<Record<string, number>> {
  return (await (await fetch(`${bff.url}/sandbox/pixels/hits`)).json()) as Record<string, number>
}

async function open(path: string) {
  await fetch(`${bff.url}/sandbox/pixels/hits`, { method: 'DELETE' })
  const tab = await browser.context.newPage()
  const errors = collectErrors(tab)
  const posts: string[] = []
  tab.on('request', (request) => {
    if (request.method() === 'POST' && request.url().startsWith(bff.url)) posts.push(request.url())
  })
  await tab.goto(`${publisher.url}${path}`)
  return { tab, errors, posts }
}

/** The widget inside the element's shadow root. */
function widget(tab: Page, selector = 'offer-widget') {
  return tab.evaluate((sel) => {
    const root = document.querySelector(sel)?.shadowRoot?.querySelector<HTMLElement>('.ow-root')
    if (!root) return null
    return {
      status: root.dataset.owStatus,
      theme: root.dataset.owTheme,
      cards: [...root.querySelectorAll<HTMLElement>('.ow-card[data-offer-uuid]')].map(
        (c) => c.dataset.offerUuid,
      ),
      heading: root.querySelector('h2, h3')?.tagName,
    }
  }, selector)
}

async function waitForComplete(tab: Page) {
  await tab.waitForFunction(
    () =>
      document
        .querySelector('offer-widget')
        ?.shadowRoot?.querySelector('.ow-root')
        ?.getAttribute('data-ow-status') === 'complete',
    null,
    { timeout: 30_000, polling: 100 },
  )
}

async function expectEachPixelOnce(tab: Page) {
  const shown = (await widget(tab))?.cards.length ?? 0
  expect(shown).toBeGreaterThan(0)
  await expect
    .poll(async () => Object.keys(await pixelHits()).length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(shown)
  for (const [url, count] of Object.entries(await pixelHits())) expect(count, url).toBe(1)
}

describe('<offer-widget> from the script-tag bundle', () => {
  it('plain HTML: attributes are options, callbacks are events, a change re-renders, removal unmounts', async () => {
    const { tab, errors, posts } = await open('/plain.html')
    await waitForComplete(tab)
    const first = await widget(tab)
    expect(first?.heading).toBe('H3')
    expect(first?.theme).toBe('light')
    const events = (
      await tab.evaluate(() => (window as unknown as { events: { type: string }[] }).events)
    ).map((event) => event.type)
    expect(events).toEqual(expect.arrayContaining(['search-created', 'offers-shown', 'complete']))
    expect(events.filter((type) => type === 'complete')).toHaveLength(1)
    await expectEachPixelOnce(tab)
    await screenshot(tab, 'custom-element-plain')

    await tab.evaluate(() => document.querySelector('offer-widget')?.setAttribute('theme', 'dark'))
    await tab.waitForFunction(
      () =>
        document
          .querySelector('offer-widget')
          ?.shadowRoot?.querySelector('.ow-root')
          ?.getAttribute('data-ow-theme') === 'dark',
    )
    // A visual change re-renders the same search: one POST in all.
    expect(posts.filter((url) => url.endsWith('/api/offer-searches'))).toHaveLength(1)

    const removed = await tab.evaluate(async () => {
      const element = document.querySelector('offer-widget') as HTMLElement
      const shadow = element.shadowRoot as ShadowRoot
      element.remove()
      await new Promise((done) => setTimeout(done, 0))
      return shadow.querySelector('.ow-root') === null
    })
    expect(removed).toBe(true)
    expect(errors).toEqual([])
    await tab.close()
  })

  it.each([
    [360, 780],
    [768, 1024],
    [1280, 900],
  ])(
    'as README shows it (the printed style, the class): CLS 0.00 at %i px, at most 240 px blank',
    async (width, height) => {
      const tab = await browser.context.newPage()
      await tab.setViewportSize({ width, height })
      const errors = collectErrors(tab)
      await observeLayoutShifts(tab, 'offer-widget')
      await tab.goto(`${publisher.url}/reserved.html`)
      await waitForComplete(tab)
      await tab.waitForFunction(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))),
      )
      const layout = await readCls(tab)
      expect(layout.cls, JSON.stringify(layout.shifts)).toBe(0)
      const blank = await tab.evaluate(() => {
        const host = document.querySelector('offer-widget') as HTMLElement
        const root = host.shadowRoot?.querySelector('.ow-root') as HTMLElement
        return host.getBoundingClientRect().bottom - root.getBoundingClientRect().bottom
      })
      expect(blank).toBeLessThanOrEqual(240)
      expect(errors).toEqual([])
      await tab.close()
    },
  )

  it('server HTML: renderWidgetHtml({ tag: "offer-widget" }) shows offers first, then hydrates in place', async () => {
    const { tab, errors, posts } = await open('/ssr.html')
    await waitForComplete(tab)
    // Hydrated, not replaced: the browser never created a search; it only measured what it showed of the
    // server's (docs/placements.md).
    expect(posts.filter((url) => !url.endsWith('/measure'))).toEqual([])
    expect(posts.length).toBeGreaterThan(0)
    const view = await widget(tab)
    expect(view?.cards.length).toBeGreaterThan(0)
    await expectEachPixelOnce(tab)
    expect(errors).toEqual([])
    await tab.close()
  })

  it('Vue 3 page: bound attributes, the complete event into Vue state, reactive change, v-if removal', async () => {
    const { tab, errors } = await open('/vue.html')
    await tab.waitForFunction(
      () => /^\d+ offers$/.test(document.getElementById('count')?.textContent ?? ''),
      null,
      {
        timeout: 30_000,
        polling: 100,
      },
    )
    expect((await widget(tab))?.status).toBe('complete')
    await tab.click('#dark')
    await tab.waitForFunction(
      () =>
        document
          .querySelector('offer-widget')
          ?.shadowRoot?.querySelector('.ow-root')
          ?.getAttribute('data-ow-theme') === 'dark',
    )
    await screenshot(tab, 'custom-element-vue-dark')
    await tab.click('#hide')
    await tab.waitForFunction(() => document.querySelector('offer-widget') === null)
    expect(errors).toEqual([])
    await tab.close()
  })
})
