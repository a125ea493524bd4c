/**
 * @module The demo publisher page (`/demo.html`) in real Chromium against the real BFF and its sandbox:
 * the loader snippet, offers in rank order, pixels once each, click targets, the failure scenarios, CLS,
 * console errors and axe-core. `?zip=` picks the sandbox scenario through `data-zip-code`.
 */

import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { carrierById } from '../../src/sandbox/carriers.ts'
import { scenarioForZip, zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { collectErrors, SCREENSHOT_DIR, screenshot } from './support/browser.ts'
import { applicant, applyWithKeyboard, playwrightKeyboard } from './support/loan-keyboard.ts'
import { requireBuild } from './support/server.ts'
import { serverAndBrowserAround } from './support/server-and-browser.ts'
import {
  observeLayoutShifts,
  readCls,
  readOverlaps,
  readWidget,
  waitForStatus,
  watchOverlaps,
} from './support/widget-page.ts'

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

const e2e = serverAndBrowserAround()

beforeAll(() => {
  console.log(`e2e screenshots: ${SCREENSHOT_DIR}`)
})

async function open(path: string, { reducedMotion = false } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await e2e.browser.context.newPage()
  const errors = collectErrors(page)
  await observeLayoutShifts(page)
  if (reducedMotion) await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.goto(`${e2e.server.url}${path}`)
  return { page, errors }
}

/** What the sandbox scenario says the page must show: active offers by rank, populated disclaimers. */
function expected(zip: string) {
  const scenario = scenarioForZip(zip)
  const offers = scenario.partners
    .flatMap((response) => response.offers)
    .filter((offer) => (offer.status ?? 'active') === 'active')
    .sort((a, b) => a.rank - b.rank)
  return {
    carriers: offers.map(
      (offer) => offer.financialInstitutionDisplayName ?? carrierById(offer.carrier)?.name,
    ),
    pixelsPerCarrier: new Map(offers.map((offer) => [carrierById(offer.carrier)?.name, offer.pixels ?? 2])),
    monetized: offers.map((offer) => offer.isMonetized ?? true),
    /**
     * The populated disclaimers of the partners with an offer among `carriers` (those on screen), seen
     * pending (a partner that answered before the search was created is never named to the widget).
     */
    disclaimersWith: (carriers: readonly string[]) => [
      ...new Set(
        scenario.partners
          .filter((r) => r.delayMs > 0)
          .filter((r) => r.offers.some((o) => carriers.includes(carrierById(o.carrier)?.name ?? '')))
          .map((r) => r.partner.disclaimer.trim())
          .filter(Boolean),
      ),
    ],
  }
}

/** The cards on screen are the best offers in ascending rank, with no tap: the first three by rank. */
async function expectRankedList(page: Page, ranked: (string | undefined)[], host = '[data-offer-widget]') {
  const carriers = (await readWidget(page, host))?.carriers ?? []
  expect(carriers).toEqual(ranked.slice(0, 3))
  return carriers
}

async function pixelHits(): Promise<Record<string, number>> {
  const response = await fetch(`${e2e.server.url}/sandbox/pixels/hits`)
  return (await response.json()) as Record<string, number>
}

describe('demo.html with the loader snippet', () => {
  it('serves the snippet with the current versioned bundle and its SRI hash', async () => {
    const manifest = requireBuild()
    const html = await (await fetch(`${e2e.server.url}/demo.html`)).text()
    expect(html).toContain(`/embed/${manifest.file}`)
    expect(html).toContain(manifest.integrity)
    expect(html).not.toContain('<!-- offer-widget:auto -->')
    const bundle = await fetch(`${e2e.server.url}/embed/${manifest.file}`)
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(bundle.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('shows active offers in rank order with disclaimers, fires each pixel once, CLS 0, no errors, no axe violation', async () => {
    await fetch(`${e2e.server.url}/sandbox/pixels/hits`, { method: 'DELETE' })
    const zip = zipOfScenario('offers-arriving')
    const want = expected(zip)
    const { page, errors } = await open(`/demo.html?zip=${zip}`)
    await waitForStatus(page, ['complete'])
    const view = await readWidget(page)
    // Three places, the best three by rank; the rest wait behind "Show N more" (their pixels fire when shown).
    expect(view?.carriers).toEqual(want.carriers.slice(0, 3))
    // A disclaimer for each partner with an offer on screen, and no other.
    const disclaimers = want.disclaimersWith(view?.carriers ?? [])
    expect(disclaimers.length).toBeGreaterThan(0)
    for (const disclaimer of disclaimers) {
      expect(view?.disclaimers).toContainEqual(expect.stringContaining(disclaimer.slice(0, 40)))
    }
    expect(view?.disclaimers.length).toBe(disclaimers.length)

    // Pixels: every URL of every shown offer exactly once, though the page polled several times after
    // the first offers appeared.
    const shown = new Set(view?.offerUuids)
    const shownPixels = (view?.carriers ?? []).reduce(
      (n, name) => n + (want.pixelsPerCarrier.get(name) ?? 0),
      0,
    )
    await expect.poll(async () => Object.keys(await pixelHits()).length).toBeGreaterThanOrEqual(shownPixels)
    const hits = await pixelHits()
    for (const [url, count] of Object.entries(hits)) expect(count, url).toBe(1)
    // Every offer on screen fired all its pixels (an offer rendered earlier and since moved behind "Show N
    // more" fired too: it was rendered).
    const firedOffers = Object.keys(hits).map((url) => url.split('/pixels/')[1]?.split('/')[0] ?? '')
    for (const uuid of shown) expect(firedOffers.includes(uuid), uuid).toBe(true)

    // Chrome's whole CLS is 0, the page's and the widget's (shifts inside the shadow root included): the
    // slot is reserved from first paint, cards pushed down by a better-ranked offer slide by transform,
    // and the progress line stays as the completion line.
    const layout = await readCls(page)
    expect(layout.cls, JSON.stringify(layout.shifts)).toBe(0)
    await expectRankedList(page, want.carriers)

    await page.addScriptTag({ path: AXE_PATH })
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (ctx: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>
          }
        }
      ).axe
      const result = await axe.run(document)
      return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)
    })
    expect(violations).toEqual([])
    expect(errors).toEqual([])
    await screenshot(page, 'demo-offers-arriving')
    await page.close()
  })

  it('has CLS 0 with reduced motion too (a better-ranked arrival snaps into place), and ends in rank order', async () => {
    const { page, errors } = await open(`/demo.html?zip=${zipOfScenario('offers-arriving')}`, {
      reducedMotion: true,
    })
    await waitForStatus(page, ['complete'])
    const layout = await readCls(page)
    expect(layout.cls, JSON.stringify(layout.shifts)).toBe(0)
    await expectRankedList(page, expected(zipOfScenario('offers-arriving')).carriers)
    expect(errors).toEqual([])
    await page.close()
  })

  it('has CLS 0 at 360x740, 768x1024 and 1280x1600 with offers arriving, and cards never overlap', async () => {
    const zip = zipOfScenario('offers-arriving')
    for (const [width, height] of [
      [360, 740],
      [768, 1024],
      [1280, 1600],
    ] as const) {
      const page = await e2e.browser.context.newPage()
      await page.setViewportSize({ width, height })
      const errors = collectErrors(page)
      await observeLayoutShifts(page)
      await watchOverlaps(page)
      await page.goto(`${e2e.server.url}/demo.html?zip=${zip}`)
      await waitForStatus(page, ['complete'])
      const layout = await readCls(page)
      const size = await page.evaluate(() => {
        const host = document.querySelector('[data-offer-widget]') as HTMLElement
        const root = host.shadowRoot?.querySelector('.ow-root') as HTMLElement
        return { host: root.getBoundingClientRect().height, reserved: getComputedStyle(host).minHeight }
      })
      console.log(
        `demo ${width}x${height}: CLS ${layout.cls}, widget ${size.host}px, reserved ${size.reserved}`,
      )
      expect(layout.cls, `${width}x${height} ${JSON.stringify(layout.shifts)}`).toBe(0)
      // The reservation holds the whole widget: nothing below it was pushed.
      expect(size.host, `${width}x${height}`).toBeLessThanOrEqual(Number.parseFloat(size.reserved))
      expect(await readOverlaps(page), `${width}x${height}`).toEqual([])
      expect(errors).toEqual([])
      await screenshot(page, `demo-${width}x${height}`)
      await page.close()
    }
  })

  it('opens the monetized url, or the unmonetized one, on click', async () => {
    const zip = zipOfScenario('offers-arriving')
    const want = expected(zip)
    const { page } = await open(`/demo.html?zip=${zip}`)
    await waitForStatus(page, ['complete'])
    await page.locator('[data-offer-widget] .ow-more button').click()
    const view = await readWidget(page)
    expect(view?.carriers).toEqual(want.carriers)
    for (const monetized of [true, false]) {
      const index = want.monetized.indexOf(monetized)
      const link = view?.links[index]
      expect(link?.href).toContain(`/sandbox/landing/${link?.uuid}?monetized=${monetized ? 1 : 0}`)
      const [popup] = await Promise.all([
        e2e.browser.context.waitForEvent('page'),
        page.locator(`.ow-card[data-offer-uuid="${link?.uuid}"] a.ow-cta`).click(),
      ])
      await popup.waitForLoadState()
      expect(popup.url()).toBe(link?.href)
      expect(await popup.textContent('h1')).toContain('Sandbox landing page')
      await popup.close()
    }
    await page.close()
  })

  it('ends each failure scenario as specified', async () => {
    const runs = {
      'no-offers': async (page: Page) => {
        await waitForStatus(page, ['complete'])
        const view = await readWidget(page)
        expect(view?.empty).toBe(true)
        expect(view?.carriers).toEqual([])
      },
      'slow-partner': async (page: Page) => {
        // The partner answering at 30 s is past the 15 s window: the search ends with what arrived.
        await waitForStatus(page, ['complete'], undefined, 25_000)
        await expectRankedList(page, expected('00001').carriers)
      },
      'rate-limited': async (page: Page) => {
        await waitForStatus(page, ['complete'], undefined, 25_000)
        await expectRankedList(page, expected('00001').carriers)
      },
      'persistent-5xx': async (page: Page) => {
        // Every poll fails for the whole window. The offers the POST returned stay on screen (the widget's
        // rule: a partial result beats an error); the search ends and polling stops.
        await waitForStatus(page, ['complete', 'error'], undefined, 25_000)
        const view = await readWidget(page)
        const initial = scenarioForZip('00005')
          .partners.filter((r) => r.delayMs === 0)
          .flatMap((r) => r.offers)
          .sort((a, b) => a.rank - b.rank)
          .map((o) => carrierById(o.carrier)?.name)
        expect(view?.carriers).toEqual(initial.slice(0, 3))
        expect(view?.status).toBe('complete')
      },
    }
    await Promise.all(
      Object.entries(runs).map(async ([name, check]) => {
        const { page } = await open(`/demo.html?zip=${zipOfScenario(name)}`)
        await check(page)
        await screenshot(page, `demo-${name}`)
        await page.close()
      }),
    )
  })

  it("second look: the widget's own application sends the lead; winners link through our click route", async () => {
    const { page, errors } = await open('/demo.html')
    await page.locator('#second-look-widget [data-ow-step-heading]').focus()
    await applyWithKeyboard(playwrightKeyboard(page), applicant(21), (step) =>
      page.locator('#second-look-widget .ow-loan-step-of', { hasText: `${step} of 5` }).waitFor(),
    )
    // Simulated partners: first look all fail, second look answers within 12 s (one lender times out).
    await waitForStatus(page, ['complete'], '#second-look-widget', 40_000)
    const view = await readWidget(page, '#second-look-widget')
    expect(view?.carriers.length).toBeGreaterThan(0)
    for (const link of view?.links ?? [])
      expect(link.href.startsWith(`${e2e.server.url}/api/clicks/`)).toBe(true)
    await screenshot(page, 'demo-second-look')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
