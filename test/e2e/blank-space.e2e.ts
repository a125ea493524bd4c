/**
 * @module Issue 31, "no blank acres, no shift", in Chromium at 360, 768 and 1280 px: the snippet pasted as
 * printed on a publisher page of another origin, in each state a visitor can be left in (results, no
 * offers, the form, an error). The widget's place holds at most 240 px more than its content, and CLS is
 * 0.00 from the first paint (docs/guides/script-tag.md#reserve-the-widgets-height).
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { articlePage, type PublisherSetup, startPublisherSetup } from './support/publisher-origin.ts'
import { observeLayoutShifts, readCls, waitForStatus } from './support/widget-page.ts'

const MAX_BLANK_PX = 240
const WIDTHS = [
  [360, 780],
  [768, 1024],
  [1280, 900],
] as const

let setup: PublisherSetup
let browser: Browser

beforeAll(async () => {
  setup = await startPublisherSetup()
  const [, style, mountPoint, , zipLine, loader] = setup.pasteBlock.split('\n') as string[]
  setup.page('/form.html', articlePage(`${style}\n${mountPoint}\n${loader}`))
  for (const scenario of ['offers-arriving', 'no-offers', 'long-copy']) {
    const withZip = (zipLine as string).replace(' -->', '').replace('94107', zipOfScenario(scenario))
    setup.page(`/${scenario}.html`, articlePage(`${style}\n${withZip}\n${loader}`))
  }
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await setup?.close()
})

/** The widget's place and what of it its content takes, in px. */
function measure(page: Page) {
  return page.evaluate(() => {
    const host = document.querySelector('[data-offer-widget]') as HTMLElement
    const root = host.shadowRoot?.querySelector('.ow-root') as HTMLElement
    const place = host.getBoundingClientRect()
    const content = root.getBoundingClientRect().bottom - place.top
    return {
      place: Math.round(place.height),
      content: Math.round(content),
      blank: Math.round(place.height - content),
    }
  })
}

const STATES: { name: string; path: string; status: string; failCreate?: boolean }[] = [
  { name: 'results', path: '/offers-arriving.html', status: 'complete' },
  { name: 'long copy', path: '/long-copy.html', status: 'complete' },
  { name: 'no offers', path: '/no-offers.html', status: 'complete' },
  { name: 'form', path: '/form.html', status: 'form' },
  { name: 'error', path: '/offers-arriving.html', status: 'error', failCreate: true },
]

describe.each(WIDTHS)('at %i px', (width, height) => {
  it.each(STATES)('$name: at most 240 px blank, CLS 0.00', async ({ name, path, status, failCreate }) => {
    const page = await browser.context.newPage()
    await page.setViewportSize({ width, height })
    const errors = collectErrors(page)
    await observeLayoutShifts(page)
    if (failCreate) {
      // The BFF's answer to the search when its upstream is down.
      await page.route(/\/api\/offer-searches$/, (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"code":"upstream_unavailable","message":"down"}',
        }),
      )
    }
    await page.goto(`${setup.publisherUrl}${path}`)
    await waitForStatus(page, [status])
    // The place gives back its blank part on the next frame.
    await page.waitForFunction(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))),
    )
    const size = await measure(page)
    console.log(
      `${name} ${width}x${height}: place ${size.place} px, content ${size.content} px, blank ${size.blank} px`,
    )
    expect(size.blank, `${name} at ${width}px: ${JSON.stringify(size)}`).toBeLessThanOrEqual(MAX_BLANK_PX)
    const layout = await readCls(page)
    expect(layout.cls, JSON.stringify(layout.shifts)).toBe(0)
    await screenshot(page, `blank-space-${name.replace(' ', '-')}-${width}`)
    if (!failCreate) expect(errors).toEqual([])
    await page.close()
  })
})
