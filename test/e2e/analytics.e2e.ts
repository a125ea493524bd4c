/**
 * @module Issue 42's done-when, in real Chromium: a plain publisher page on its own origin, the block
 * `npm run snippet` prints pasted with `data-analytics="dataLayer"` on its mount point, the real BFF and
 * sandbox on another. The demo flow (form, search, offers shown, a click, "Show N more") leaves exactly the
 * expected `window.dataLayer` sequence (docs/events.md), GA4's `view_item_list` / `select_item` with each
 * offer's slot as `index`, and nothing of the visitor in it: not the ZIP or date of birth typed, not the
 * user agent, not the IP. How many `view_item_list` pushes the first places take follows the sandbox's
 * arrival times against the 1 s polls, so consecutive ones are read as one batch, whose items are checked.
 * The mount point has a `data-placement` too: the lists carry its name, and the BFF's placement report counts
 * exactly that placement's one search, its completion, every card shown and the one click (docs/placements.md).
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { type Browser, collectErrors, launchBrowser } from './support/browser.ts'
import { articlePage, type PublisherSetup, startPublisherSetup } from './support/publisher-origin.ts'
import { waitForStatus } from './support/widget-page.ts'

let setup: PublisherSetup
let browser: Browser

const REPORTS_TOKEN = 'e2e-analytics-reports-token-0123456789abcdef'
const PLACEMENT = 'article-hero'

beforeAll(async () => {
  setup = await startPublisherSetup({ REPORTS_TOKEN })
  const lines = setup.pasteBlock.split('\n')
  // The mount point line as printed, with the analytics option and a placement added.
  const block = lines.map((line, i) =>
    i === 2
      ? line.replace('></div>', ` data-analytics="dataLayer" data-placement="${PLACEMENT}"></div>`)
      : line,
  )
  setup.page('/analytics.html', articlePage(block.join('\n')))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await setup?.close()
})

type Entry = {
  event?: string
  ecommerce?: { item_list_name?: string; items?: { item_id: string; index: number }[] } | null
}

const shadow = (page: Page, selector: string) => page.locator(`[data-offer-widget] >> ${selector}`)
const readLayer = (page: Page) =>
  page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []) as Promise<Entry[]>

/** Each push by name (`null` for the `{ ecommerce: null }` clear), consecutive `view_item_list` batches as one. */
function sequenceOf(layer: Entry[]): string[] {
  const names = layer.map((entry) => entry.event ?? (entry.ecommerce === null ? 'null' : '?'))
  return names.filter(
    (name, i) =>
      !(name === 'null' && names[i + 1] === 'view_item_list' && names[i - 1] === 'view_item_list') &&
      !(name === 'view_item_list' && names[i - 2] === 'view_item_list'),
  )
}

it('the demo flow leaves the exact GA4 dataLayer sequence, each offer with its slot, and no visitor data', async () => {
  const page = await browser.context.newPage()
  const errors = collectErrors(page)
  await page.setViewportSize({ width: 390, height: 900 })
  await page.goto(`${setup.publisherUrl}/analytics.html`)
  await waitForStatus(page, ['form'])
  const zip = zipOfScenario('offers-arriving')
  await shadow(page, 'input[autocomplete="postal-code"]').fill(zip)
  await shadow(page, 'input[autocomplete="bday"]').fill('1990-04-17')
  await shadow(page, 'button[type="submit"]').click()
  await waitForStatus(page, ['complete'])
  const firstThree = await shadow(page, 'li.ow-card').evaluateAll((cards) =>
    cards.map((card) => (card as HTMLElement).dataset.offerUuid),
  )
  // The click is the card's own; the partner's page is not the test's.
  await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault()))
  const second = shadow(page, 'li.ow-card').nth(1)
  const clickedUuid = await second.getAttribute('data-offer-uuid')
  await second.locator('a.ow-cta').click()
  await shadow(page, '.ow-more button').click()
  await expect.poll(async () => (await readLayer(page)).at(-1)?.event).toBe('view_item_list')
  const allCards = await shadow(page, 'li.ow-card').evaluateAll((cards) =>
    cards.map((card) => (card as HTMLElement).dataset.offerUuid),
  )

  const layer = await readLayer(page)
  expect(sequenceOf(layer)).toEqual([
    'offer_widget_form_view',
    'offer_widget_form_start',
    'offer_widget_form_submit',
    'offer_widget_search_created',
    'null',
    'view_item_list',
    'offer_widget_search_complete',
    'null',
    'select_item',
    'offer_widget_show_more',
    'null',
    'view_item_list',
  ])
  const complete = layer.findIndex((entry) => entry.event === 'offer_widget_search_complete')
  const indexes = (entries: Entry[], event: string) =>
    entries.filter((entry) => entry.event === event).flatMap((entry) => entry.ecommerce?.items ?? [])
  // Before the click: each item once, in one of the first three slots (a better offer arriving takes a slot
  // and moves those below it down, which reports nothing again), and the three cards on screen among them.
  const first = indexes(layer.slice(0, complete), 'view_item_list')
  for (const item of first) expect([1, 2, 3]).toContain(item.index)
  expect(new Set(first.map((item) => item.item_id)).size).toBe(first.length)
  expect(first.map((item) => item.item_id)).toEqual(expect.arrayContaining(firstThree))
  expect(indexes(layer, 'select_item')).toEqual([expect.objectContaining({ item_id: clickedUuid, index: 2 })])
  // After "Show N more": the revealed offers not reported before, in slots 4 and below; every card now on
  // screen reported exactly once over the whole flow.
  const revealed = indexes(layer.slice(complete + 1), 'view_item_list')
  for (const item of revealed) expect(item.index).toBeGreaterThanOrEqual(4)
  const everyShown = indexes(layer, 'view_item_list').map((item) => item.item_id)
  expect(everyShown.sort()).toEqual([...allCards].sort())
  expect(layer.find((entry) => entry.event === 'offer_widget_form_start')).toEqual({
    event: 'offer_widget_form_start',
    form: 'search',
    field: 'zipCode',
  })

  // Nothing of the visitor: the values typed, the browser's user agent, an IP address.
  const text = JSON.stringify(layer)
  const userAgent = await page.evaluate(() => navigator.userAgent)
  for (const value of [`"${zip}"`, '1990-04-17', userAgent, '127.0.0.1'])
    expect(text, `${value} in the dataLayer`).not.toContain(value)
  expect(text).not.toMatch(/zipCode":"|dateOfBirth|userAgent|"ip"/i)
  // The list is the placement's.
  expect(
    new Set(layer.flatMap((entry) => (entry.ecommerce ? [entry.ecommerce.item_list_name] : []))),
  ).toEqual(new Set([PLACEMENT]))

  // Placements end to end (docs/placements.md): the BFF on its own origin counted this placement's search,
  // its completion, every card the visitor saw and the one click, from the widget's measures (a cross-origin
  // keepalive fetch); the report is the operator's.
  const report = async () => {
    const res = await fetch(`${setup.bff.url}/api/reports/placements`, {
      headers: { Authorization: `Bearer ${REPORTS_TOKEN}` },
    })
    const body = (await res.json()) as { rows: Array<Record<string, unknown>> }
    return body.rows.filter((row) => row.placement === PLACEMENT)
  }
  await expect.poll(report, { timeout: 10_000 }).toEqual([
    expect.objectContaining({
      searches: 1,
      searchesCompleted: 1,
      offersShown: allCards.length,
      clicks: 1,
      secondLookLeads: 0,
    }),
  ])
  expect(errors).toEqual([])
  await page.close()
})
