/**
 * @module `/demo.html?ssr=1` in real Chromium against the real BFF (its own demo route, the built server
 * renderer, the sandbox): the first offers and their pixels with the script-tag bundle blocked, then with
 * it loaded, hydration that keeps every pixel at one request, polling that brings the later offers, CLS 0
 * and no console error or warning (a hydration mismatch is one). Server renderer and bundle share React 18.3.
 */
import { existsSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RateTable } from '../../src/contract/rate-table.ts'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { REPO_ROOT, requireBuild } from './support/server.ts'
import { observeLayoutShifts, readCls, readWidget, waitForStatus } from './support/widget-page.ts'

let server: RunningServer
let browser: Browser
const ZIP = zipOfScenario('offers-arriving')

beforeAll(async () => {
  requireBuild()
  if (!existsSync(`${REPO_ROOT}/dist/ssr/render-widget-html.js`)) {
    throw new Error('e2e: dist/ssr is missing; run npm run build first')
  }
  // The server's own static files and demo route (with the server renderer), as npm start serves them: with
  // the second look, whose loan application on the same page asks it for the consent texts at load.
  server = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_POINTS: '100000' }), {
    secondLook: { inMemoryLedger: true },
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function pixelHits(): Promise<Record<string, number>> {
  return (await (await fetch(`${server.url}/sandbox/pixels/hits`)).json()) as Record<string, number>
}

async function open(blockBundle: boolean): Promise<{ page: Page; errors: string[]; warnings: string[] }> {
  await fetch(`${server.url}/sandbox/pixels/hits`, { method: 'DELETE' })
  const page = await browser.context.newPage()
  const errors = collectErrors(page)
  // React 18 reports a hydration mismatch as an error, some of its hydration notices as warnings.
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  if (blockBundle) await page.route('**/embed/offer-widget.*.js', (route) => route.abort())
  await observeLayoutShifts(page)
  await page.goto(`${server.url}/demo.html?ssr=1&zip=${ZIP}`)
  return { page, errors, warnings }
}

/** The rate table the server rendered with, from the state the markup carries. */
function renderedTable(page: Page): Promise<RateTable> {
  return page.evaluate(() => {
    const state = document
      .querySelector('[data-offer-widget]')
      ?.shadowRoot?.querySelector('script[data-ow-state]')
    return JSON.parse(state?.textContent ?? '{}').attach.rateTable
  })
}

const activeUuids = (table: RateTable) =>
  table.offers
    .filter((offer) => offer.status === 'active')
    .sort((a, b) => a.rank - b.rank)
    .map((offer) => offer.uuid)

describe('/demo.html?ssr=1', () => {
  it('shows the first offers and fires their pixels with the bundle blocked', async () => {
    const { page } = await open(true)
    const table = await renderedTable(page)
    const first = activeUuids(table)
    expect(first.length).toBeGreaterThan(0)
    expect(table.pendingResponses.length).toBeGreaterThan(0)
    // Declarative shadow DOM: the browser made the shadow root from the HTML, no script ran.
    const view = await readWidget(page)
    // The first cards (initialOffers, 3 by default) of the server's rate table.
    expect(view?.offerUuids).toEqual(first.slice(0, 3))
    expect(
      await page.evaluate(
        () => typeof (window as { OfferWidget?: { version?: string } }).OfferWidget?.version,
      ),
    ).toBe('undefined')
    const wanted = table.offers
      .filter((offer) => first.slice(0, 3).includes(offer.uuid))
      .flatMap((offer) => offer.impressionTrackingPixelUrls ?? [])
      .map((url) => new URL(url).pathname)
    await expect.poll(async () => Object.keys(await pixelHits()).length).toBe(wanted.length)
    const hits = await pixelHits()
    for (const path of wanted)
      expect(Object.entries(hits).find(([url]) => url.endsWith(path))?.[1], path).toBe(1)
    await screenshot(page, 'ssr-demo-no-javascript')
    await page.close()
  })

  it('hydrates in place: every pixel once, polling brings the later offers, CLS 0, no console error', async () => {
    const { page, errors, warnings } = await open(false)
    // The server's cards, read before the bundle runs (the mount point is parsed before the snippet).
    const first = (await readWidget(page))?.offerUuids ?? []
    expect(first.length).toBeGreaterThan(0)
    // Tag the server's first card: hydration must keep that very element.
    await page.evaluate(() => {
      const card = document.querySelector('[data-offer-widget]')?.shadowRoot?.querySelector('.ow-card')
      card?.setAttribute('data-from-server', '')
    })
    await page.waitForFunction(
      () => 'OfferWidget' in window && 'version' in (window as { OfferWidget: object }).OfferWidget,
    )
    const kept = () =>
      page.evaluate(
        () =>
          document
            .querySelector('[data-offer-widget]')
            ?.shadowRoot?.querySelector('.ow-card[data-from-server]') !== null,
      )
    expect(await kept()).toBe(true)
    // Polling goes on to the end of the search; the later offers are there (some behind "Show more").
    await waitForStatus(page, ['complete'])
    // The visitor's own click (a script's click() is not input, and what it reveals would be scored as
    // a layout shift no visitor causes).
    await page.locator('[data-offer-widget] .ow-more button').click()
    await expect
      .poll(async () => (await readWidget(page))?.offerUuids.length ?? 0)
      .toBeGreaterThan(first.length)
    // Every pixel at most once; every card rendered, the server's included, fired all of its pixels.
    const pixelsOf = (uuid: string, hits: Record<string, number>) =>
      Object.keys(hits).filter((url) => url.includes(`/pixels/${uuid}/`))
    const shown = (await readWidget(page))?.offerUuids ?? []
    await expect
      .poll(async () => {
        const hits = await pixelHits()
        return [...new Set([...first, ...shown])].every((uuid) => pixelsOf(uuid, hits).length > 0)
      })
      .toBe(true)
    const hits = await pixelHits()
    for (const [url, count] of Object.entries(hits)) expect(count, url).toBe(1)
    const layout = await readCls(page)
    expect(layout.cls, JSON.stringify(layout.shifts)).toBe(0)
    expect(errors).toEqual([])
    expect(warnings).toEqual([])
    await screenshot(page, 'ssr-demo-hydrated')
    await page.close()
  })
})
