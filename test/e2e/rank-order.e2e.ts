/**
 * @module Issue 31 in Chromium at 360, 768 and 1280 px, on the demo page and the real BFF with its sandbox:
 * the search ends with the best offers on screen in ascending rank with no tap, also with the mouse resting
 * inside the widget after a real submit; and no card moves within 600 ms of a press inside the widget
 * (docs/decisions/0047-rank-order-still-list.md).
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { collectErrors } from './support/browser.ts'
import { rankedCarriers } from './support/ranked-carriers.ts'
import { serverAndBrowserAround } from './support/server-and-browser.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const e2e = serverAndBrowserAround()
const HOST = '[data-offer-widget]'
const WIDTHS = [
  [360, 780],
  [768, 1024],
  [1280, 900],
] as const

async function openAt(
  width: number,
  height: number,
  path: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = await e2e.browser.context.newPage()
  await page.setViewportSize({ width, height })
  const errors = collectErrors(page)
  await page.goto(`${e2e.server.url}${path}`)
  return { page, errors }
}

const ZIP = zipOfScenario('offers-arriving')
const TOP = rankedCarriers(ZIP).slice(0, 3)

describe('rank order at completion, with no tap', () => {
  for (const [width, height] of WIDTHS) {
    it(`${width} px: the ZIP on the page, nothing touched`, async () => {
      const { page, errors } = await openAt(width, height, `/demo.html?zip=${ZIP}`)
      await waitForStatus(page, ['complete'])
      expect((await readWidget(page))?.carriers).toEqual(TOP)
      expect(errors).toEqual([])
      await page.close()
    })

    it(`${width} px: a real mouse submit, the pointer resting inside the widget`, async () => {
      const { page, errors } = await openAt(width, height, '/demo.html')
      await waitForStatus(page, ['form'])
      await page.locator(`${HOST} input[autocomplete="postal-code"]`).fill(ZIP)
      await page.locator(`${HOST} input[type="date"]`).fill('1990-01-01')
      const submit = page.locator(`${HOST} button[type="submit"]`)
      await submit.scrollIntoViewIfNeeded()
      const box = await submit.boundingBox()
      if (!box) throw new Error('no submit button on screen')
      // A real mouse: moved onto the button, pressed, released, and left where it is.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 })
      await page.mouse.down()
      await page.mouse.up()
      await waitForStatus(page, ['complete'])
      const pointer = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
      const inside = await page.evaluate(
        ({ x, y, host }) => document.querySelector(host)?.contains(document.elementFromPoint(x, y)) ?? false,
        { ...pointer, host: HOST },
      )
      expect(inside, 'the resting pointer is over the widget').toBe(true)
      expect((await readWidget(page))?.carriers).toEqual(TOP)
      expect(errors).toEqual([])
      await page.close()
    })
  }
})

/**
 * Every frame: each card's place in the list's layout by uuid (`offsetTop`: a scroll of the page is not a
 * move) and the start times of the cards' animations (a slide or an entrance that began), and the presses
 * inside the widget, on the page's clock (which is the document timeline's).
 */
const RECORDER = `(() => {
  const host = document.querySelector('${HOST}');
  const rec = { frames: [], downs: [], ups: [] };
  window.__moves = rec;
  host.addEventListener('pointerdown', () => rec.downs.push(performance.now()), true);
  window.addEventListener('pointerup', () => rec.ups.push(performance.now()), true);
  const frame = () => {
    const cards = [...(host.shadowRoot?.querySelectorAll('li.ow-card') ?? [])];
    rec.frames.push({ at: performance.now(), starts: cards.flatMap((c) => c.getAnimations().map((a) => Number(a.startTime ?? 0))), tops: Object.fromEntries(cards.map((c) => [c.dataset.offerUuid, c.offsetTop])) });
    if (!rec.stop) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`

interface Recording {
  frames: { at: number; tops: Record<string, number>; starts: number[] }[]
  downs: number[]
  ups: number[]
}

describe('no card moves under a press', () => {
  for (const [width, height] of WIDTHS) {
    it(`${width} px: a finger pressing a card as each poll answers; then rank order`, async () => {
      const page = await e2e.browser.context.newPage()
      await page.setViewportSize({ width, height })
      const errors = collectErrors(page)
      // Each poll's answer is let through while a finger presses the first card's heading (not its link),
      // and the finger lifts two frames after: a better offer arrives under the press.
      let taps = 0
      const isPoll = (url: URL) => /^\/api\/offer-searches\/[0-9a-f-]{36}$/.test(url.pathname)
      await page.route(isPoll, async (route) => {
        const box = await page.locator(`${HOST} li.ow-card .ow-headline`).first().boundingBox()
        if (box) {
          await page.mouse.move(box.x + 4, box.y + 4)
          await page.mouse.down()
        }
        await route.fulfill({ response: await route.fetch() })
        if (box) {
          await page.evaluate(
            () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
          )
          await page.mouse.up()
          taps++
        }
      })
      await page.goto(`${e2e.server.url}/demo.html?zip=${ZIP}`)
      await page.locator(`${HOST} li.ow-card`).first().scrollIntoViewIfNeeded()
      await page.evaluate(RECORDER)
      // The last press's hold ends 600 ms after it; then the best offers take their places.
      await page.waitForFunction(
        ([host, top]) =>
          JSON.stringify(
            [
              ...(document
                .querySelector(host as string)
                ?.shadowRoot?.querySelectorAll('li.ow-card .ow-carrier') ?? []),
            ].map((e) => e.textContent),
          ) === JSON.stringify(top),
        [HOST, TOP] as const,
        { timeout: 5000 },
      )
      const recording = await page.evaluate(() => {
        const rec = (window as unknown as { __moves: Recording & { stop?: boolean } }).__moves
        rec.stop = true
        return rec as Recording
      })
      expect(taps).toBeGreaterThanOrEqual(2)
      // The list did change its order (the first card at the start ranks third), only never under a press.
      const firstCards = new Set(recording.frames.map((f) => Object.keys(f.tops)[0]))
      expect(firstCards.size).toBeGreaterThan(1)
      // For each press: from it until 600 ms after its release, every card keeps its place.
      let checked = 0
      for (const [i, down] of recording.downs.entries()) {
        const up = recording.ups.find((at) => at >= down) ?? down
        const until = Math.min(up + 600, recording.downs[i + 1] ?? Number.POSITIVE_INFINITY)
        const frames = recording.frames.filter((f) => f.at >= down && f.at <= until)
        const first = frames[0]
        if (!first) continue
        for (const frame of frames) {
          for (const [uuid, top] of Object.entries(first.tops)) {
            if (uuid in frame.tops)
              expect(frame.tops[uuid], `card ${uuid} ${frame.at - down} ms after a press`).toBe(top)
          }
          expect(Object.keys(frame.tops).slice(0, Object.keys(first.tops).length)).toEqual(
            Object.keys(first.tops),
          )
        }
        checked += frames.length
      }
      expect(checked).toBeGreaterThan(0)
      expect(errors).toEqual([])
      await page.close()
    })
  }
})
