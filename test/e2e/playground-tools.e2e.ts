/**
 * @module The playground's Storybook-level tools in Chromium at 1280 px: finding a story by typing (`/`,
 * Enter, Escape, "No stories match"), zoom and Fit (the frame keeps its CSS width, so the widget still sees
 * its viewport, while it is drawn scaled), Outline and Measure drawn inside the preview frame, and the play
 * script's steps listed under the story; each kept in the link where it is state.
 */
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../../src/server/start-server.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { playVerdict, previewFrame } from './support/playground-page.ts'
import { requireBuild, startTestServer } from './support/server.ts'
import { waitForStatus } from './support/widget-page.ts'

const HOST = '#widget'
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  requireBuild()
  server = await startTestServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

const scriptErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Failed to load resource'))

async function open(query: string): Promise<{ page: Page; frame: Frame; errors: string[] }> {
  const page = await browser.context.newPage()
  const errors = collectErrors(page)
  await page.goto(`${server.url}/${query}`)
  return { page, frame: await previewFrame(page), errors }
}

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name)
const storyLinks = (page: Page) => page.$$eval('.pg-stories a', (links) => links.map((a) => a.textContent))

/** The preview iframe's drawn box on the page, and the stage around it. */
const drawn = (page: Page) =>
  page.evaluate(() => {
    const frame = document.querySelector('iframe.pg-frame')?.getBoundingClientRect()
    const stage = document.querySelector('.pg-stage')?.getBoundingClientRect()
    return { width: frame?.width ?? 0, stage: stage?.width ?? 0 }
  })

describe('playground tools', () => {
  it('finds a story by typing: / focuses, Enter opens the first match, Escape clears', async () => {
    const { page, errors } = await open('?story=offers-arriving')
    const all = await storyLinks(page)
    expect(await page.$$eval('.pg-story-group h2', (hs) => hs.map((h) => h.textContent))).toEqual([
      'Offer search',
      'Second look',
      'Loan application',
    ])
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pg-search')
    await page.keyboard.type('DUPLICATE')
    expect(await storyLinks(page)).toEqual(['Loan application, duplicate applicant'])
    await page.keyboard.press('Enter')
    await expect.poll(() => param(page, 'story')).toBe('loan-duplicate')
    await expect.poll(() => page.textContent('.pg-story h2')).toBe('Loan application, duplicate applicant')
    // The picked story's play script types into the frame, which takes focus: once it is done, back to the
    // field, as a person would.
    expect((await playVerdict(page)).status).toBe('passed')
    await page.focus('#pg-search')
    await page.keyboard.press('Escape')
    await expect.poll(() => storyLinks(page)).toEqual(all)
    await page.keyboard.type('zebra')
    // Polled: each key re-renders the list, and a loaded machine may read it between two keys.
    await expect.poll(() => page.textContent('.pg-search-none')).toBe('No stories match “zebra”')
    await screenshot(page, 'playground-tools-search-none')
    expect(scriptErrors(errors)).toEqual([])
    await page.close()
  })

  it('zooms and fits: the frame keeps its CSS width, drawn scaled, and the link keeps the zoom', async () => {
    const { page, frame, errors } = await open('?story=narrow')
    await waitForStatus(frame, ['searching', 'complete'], HOST)
    await page.click('button[aria-label="Zoom in"]')
    await page.click('button[aria-label="Zoom in"]')
    await expect.poll(() => param(page, 'zoom')).toBe('125')
    await expect.poll(async () => (await drawn(page)).width).toBeCloseTo(360 * 1.25, 0)
    expect(await frame.evaluate(() => window.innerWidth)).toBe(360)
    await page.click('text=End of 15 s window')
    await waitForStatus(frame, ['complete'], HOST)
    await screenshot(page, 'playground-tools-zoom-125-360')

    // Fit: a desktop viewport shrunk into a pane narrower than 1280 px; the widget still sees 1280.
    await page.selectOption('#pg-viewport', '1280')
    await page.click('.pg-zoom >> text=Fit')
    await expect.poll(() => param(page, 'zoom')).toBe('fit')
    await expect.poll(async () => await frame.evaluate(() => window.innerWidth)).toBe(1280)
    const fit = await drawn(page)
    expect(fit.width).toBeLessThan(1280)
    expect(fit.width).toBeLessThanOrEqual(fit.stage)
    const percent = Number((await page.textContent('.pg-zoom-value'))?.replace(/\D/g, ''))
    expect(percent).toBe(Math.round((fit.width / 1280) * 100))
    await screenshot(page, 'playground-tools-fit-1280')

    // The link opens the same zoom; reset goes back to 100 %.
    await page.reload()
    await expect.poll(async () => (await drawn(page)).width).toBeCloseTo(fit.width, 0)
    await page.click('.pg-zoom-value')
    await expect.poll(() => param(page, 'zoom')).toBe(null)
    await expect.poll(async () => (await drawn(page)).width).toBe(1280)
    expect(scriptErrors(errors)).toEqual([])
    await page.close()
  })

  it('outlines every element and measures the one under the pointer, inside the frame', async () => {
    const { page, frame, errors } = await open('?story=dark-theme&vp=360')
    await page.click('text=End of 15 s window', { timeout: 20_000 })
    await waitForStatus(frame, ['complete'], HOST)
    const outlineOf = () =>
      frame.evaluate((host) => {
        const cta = document.querySelector(host)?.shadowRoot?.querySelector('.ow-cta')
        return cta ? getComputedStyle(cta).outlineStyle : 'no cta'
      }, HOST)
    expect(await outlineOf()).toBe('none')
    await page.click('.pg-inspect >> text=Outline')
    await expect.poll(() => param(page, 'outline')).toBe('1')
    await expect.poll(outlineOf).toBe('solid')
    expect(await frame.evaluate(() => getComputedStyle(document.body).outlineStyle)).toBe('solid')
    await screenshot(page, 'playground-tools-outline-360')

    await page.click('.pg-inspect >> text=Measure')
    await expect.poll(() => param(page, 'measure')).toBe('1')
    // The pointer over the first card's "View rate", through the frame's box on the page.
    const box = await frame.evaluate((host) => {
      const rect = document.querySelector(host)?.shadowRoot?.querySelector('.ow-cta')?.getBoundingClientRect()
      return (
        rect && {
          x: rect.x + rect.width / 2,
          y: rect.y + rect.height / 2,
          width: rect.width,
          height: rect.height,
        }
      )
    }, HOST)
    const origin = await page.$eval('iframe.pg-frame', (f) => f.getBoundingClientRect())
    if (!box) throw new Error('no View rate link in the frame')
    await page.mouse.move(origin.x + box.x, origin.y + box.y)
    const label = () =>
      frame.evaluate(() => document.querySelector('#pg-measure:not([hidden]) .label')?.textContent)
    await expect
      .poll(label)
      .toMatch(new RegExp(`^${Math.round(box.width)}(\\.\\d+)? × ${Math.round(box.height)}`))
    expect(await label()).toContain('padding')
    await screenshot(page, 'playground-tools-measure-360')

    await page.click('.pg-inspect >> text=Outline')
    await expect.poll(outlineOf).toBe('none')
    await page.click('.pg-inspect >> text=Measure')
    await expect.poll(label).toBeUndefined()
    expect(param(page, 'outline')).toBe(null)
    expect(scriptErrors(errors)).toEqual([])
    await page.close()
  })

  it("lists the play script's steps, each passed, and the page at 1280 px", async () => {
    const { page } = await open('?story=spanish')
    await page.click('text=End of 15 s window', { timeout: 20_000 })
    expect(await playVerdict(page)).toMatchObject({ status: 'passed' })
    await page.click('.pg-play-steps summary')
    const marks = await page.$$eval('.pg-play-steps li', (items) =>
      items.map((li) => li.getAttribute('data-mark')),
    )
    expect(marks.length).toBeGreaterThan(3)
    expect(new Set(marks)).toEqual(new Set(['passed']))
    await screenshot(page, 'playground-tools-1280')
    await page.close()
  })
})
