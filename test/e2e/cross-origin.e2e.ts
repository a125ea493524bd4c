/**
 * @module The widget as production runs it: the publisher's page, the BFF and the carriers' tracker on three
 * distinct origins (three loopback ports). The tracker is the sandbox behind a front that answers every
 * impression pixel with a 302 and strips every CORS and CORP header, as real ad-tech trackers do. Every
 * rendered offer's final pixel hop must be hit exactly once, and the publisher's console stays clean.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snippetFor } from '../../src/publisher/snippet.ts'
import { createSandbox } from '../../src/sandbox/index.ts'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { loadConfig } from '../../src/server/config.ts'
import { withEmbedAssets } from '../../src/server/embed-assets.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { nodeStaticFiles } from '../../src/server/static-files.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { REPO_ROOT, requireBuild } from './support/server.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const FINAL_HOP = 'hop=final'

let tracker: {
  url: string
  server: ServerType
  firstHops: Map<string, number>
  hits: () => Record<string, number>
}
let bff: RunningServer
let publisher: { url: string; server: Server }
let browser: Browser

function listen(server: Server | ServerType): Promise<string> {
  return new Promise((resolve) => {
    const done = () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    if (server.listening) done()
    else server.once('listening', done)
  })
}

async function startTracker() {
  const sandbox = createSandbox()
  const firstHops = new Map<string, number>()
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      const url = new URL(request.url)
      if (
        url.pathname.startsWith('/pixels/') &&
        request.method === 'GET' &&
        !url.search.includes(FINAL_HOP)
      ) {
        firstHops.set(url.href, (firstHops.get(url.href) ?? 0) + 1)
        return new Response(null, { status: 302, headers: { location: `${url.pathname}?${FINAL_HOP}` } })
      }
      const response = await sandbox.app.fetch(request)
      const headers = new Headers(response.headers)
      for (const name of [...headers.keys()]) {
        if (name.startsWith('access-control-') || name === 'cross-origin-resource-policy')
          headers.delete(name)
      }
      return new Response(response.body, { status: response.status, headers })
    },
  })
  return { url: await listen(server), server, firstHops, hits: () => sandbox.pixelHits() }
}

beforeAll(async () => {
  const manifest = requireBuild()
  tracker = await startTracker()
  // The publisher's origin is known before the BFF starts: its allow-list names it.
  const page = createServer()
  const publisherUrl = await new Promise<string>((resolve) =>
    page.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(page.address() as AddressInfo).port}`)),
  )
  bff = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_POINTS: '100000',
      ENGINE_TOKEN: 'sandbox-test-token',
      ENGINE_ENV: 'test',
      ENGINE_BASE_URL_TEST: `${tracker.url}/test`,
      SESSION_SECRET: 'e2e-cross-origin-secret-0123456789abcdef',
      ALLOWED_ORIGINS: publisherUrl,
      // Required outside sandbox mode; with no marketplace here no link is built on it.
      PUBLIC_BASE_URL: 'https://offers.example.com',
    }),
    { staticFiles: withEmbedAssets(nodeStaticFiles(REPO_ROOT), { root: REPO_ROOT }), secondLook: false },
  )
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Publisher</title>
<link rel="icon" href="data:,"></head><body><h1>Car insurance</h1>
<div data-offer-widget data-endpoint="${bff.url}" data-zip-code="${zipOfScenario('offers-arriving')}"
  style="display:block;min-height:560px"></div>
<script>${snippetFor(manifest, bff.url)}</script></body></html>`
  page.on('request', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  publisher = { url: publisherUrl, server: page }
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await bff?.close()
  publisher?.server.closeAllConnections()
  await new Promise((done) => publisher?.server.close(done))
  tracker?.server.close()
})

describe('publisher, BFF and tracker on three origins', () => {
  it('gets the bundle brotli-encoded, and Chromium checks its SRI hash on the decoded bytes', async () => {
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    const bundle = page.waitForResponse((response) => response.url().includes('/embed/offer-widget.'))
    await page.goto(publisher.url)
    const headers = await (await bundle).allHeaders()
    expect(headers['content-encoding']).toBe('br')
    expect(headers.vary).toMatch(/accept-encoding/i)
    const script = await page.evaluate(() => {
      const element = document.querySelector<HTMLScriptElement>('script[src*="/embed/offer-widget."]')
      return { src: element?.src ?? '', integrity: element?.integrity ?? '' }
    })
    expect(script.integrity).toMatch(/^sha384-/)
    // The bundle ran: its hash matched the decoded bytes.
    await page.waitForFunction(
      () => typeof (window as { OfferWidget?: { version?: string } }).OfferWidget?.version === 'string',
    )
    // The check is live on the same encoded answer: a wrong hash is refused.
    const wrong = `sha384-${'A'.repeat(64)}`
    const outcome = await page.evaluate(
      ({ src, integrity }) =>
        new Promise<string>((resolve) => {
          const again = document.createElement('script')
          again.crossOrigin = 'anonymous'
          again.integrity = integrity
          again.onload = () => resolve('ran')
          again.onerror = () => resolve('refused')
          again.src = src
          document.head.append(again)
        }),
      { src: script.src, integrity: wrong },
    )
    expect(outcome).toBe('refused')
    expect(errors.filter((error) => !/integrity/i.test(error))).toEqual([])
    await page.close()
  })

  it('renders offers, follows every pixel redirect to its final hop exactly once, no console error', async () => {
    const origins = new Set([publisher.url, bff.url, tracker.url].map((u) => new URL(u).origin))
    expect(origins.size).toBe(3)
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    await page.goto(`${publisher.url}/`)
    await waitForStatus(page, ['complete'])
    const view = await readWidget(page)
    expect(view?.carriers.length).toBeGreaterThan(1)

    // Every rendered offer's pixels: the redirect asked once, its final hop hit once; nothing else.
    const shown = new Set(view?.offerUuids)
    const offerOf = (url: string) => new URL(url).pathname.split('/')[2] ?? ''
    await expect
      .poll(() => Object.keys(tracker.hits()).length, { timeout: 10_000 })
      .toBe(tracker.firstHops.size)
    const firstHops = [...tracker.firstHops]
    // Every offer on screen fired; so did any offer rendered earlier and since moved behind "Show N more".
    const fired = new Set(firstHops.map(([url]) => offerOf(url)))
    for (const uuid of shown) expect(fired.has(uuid), uuid).toBe(true)
    for (const [url, count] of firstHops) expect(count, url).toBe(1)
    const finals = tracker.hits()
    for (const [url] of firstHops) expect(finals[`${url}?${FINAL_HOP}`], url).toBe(1)
    expect(Object.keys(finals)).toHaveLength(firstHops.length)

    expect(errors).toEqual([])
    await screenshot(page, 'cross-origin-publisher')
    await page.close()
  })
})
