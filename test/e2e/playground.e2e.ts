/**
 * @module The playground (`/`, the built dist/site) in Chromium: every story renders through the embed's
 * Shadow DOM mount on msw without console errors; the same story runs against the real BFF and sandbox;
 * story links carry the controls.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STORIES } from '../../src/playground/stories.ts'
import type { RunningServer } from '../../src/server.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { requireBuild, startTestServer } from './support/server.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const HOST = '#widget'
/** Where a story comes to rest: a finished search, or the form waiting for the visitor. */
const SETTLED = ['complete', 'error', 'form']

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

/** Network answers a story provokes on purpose (429, 503) are logged by Chrome; script errors are not. */
const scriptErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Failed to load resource'))

async function openStory(query: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage()
  const errors = collectErrors(page)
  await page.goto(`${server.url}/${query}`)
  return { page, errors }
}

async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(run))))
  }
  return results
}

describe('playground', () => {
  it('renders every story on msw without console errors', async () => {
    // A few pages at a time: fifteen Chromium pages with service workers at once starve a 2-core machine.
    const results = await inBatches(STORIES, 3, async (story) => {
      const { page, errors } = await openStory(`?story=${story.id}`)
      await waitForStatus(page, SETTLED, HOST, 40_000).catch((error: Error) => {
        throw new Error(`story "${story.id}" did not settle: ${error.message}`)
      })
      const view = await readWidget(page, HOST)
      const log = await page.locator('.pg-log li').allTextContents()
      await screenshot(page, `story-${story.id}`)
      await page.close()
      return {
        id: story.id,
        status: view?.status,
        offers: view?.carriers.length ?? 0,
        log,
        errors: scriptErrors(errors),
      }
    })
    for (const result of results) {
      expect(result.errors, result.id).toEqual([])
      expect(result.log.some((line) => line.includes('request')) || result.status === 'form', result.id).toBe(
        true,
      )
    }
    const byId = Object.fromEntries(results.map((r) => [r.id, r]))
    expect(byId['offers-arriving']).toMatchObject({ status: 'complete', offers: 5 })
    expect(byId['no-offers']).toMatchObject({ status: 'complete', offers: 0 })
    expect(byId['form-empty']?.status).toBe('form')
    expect(byId['non-active']).toMatchObject({ status: 'complete', offers: 1 })
    expect(byId['offers-arriving']?.log.some((line) => line.includes('pixel'))).toBe(true)
    expect(byId['offers-arriving']?.log.some((line) => line.includes('onComplete 5 offers'))).toBe(true)
  }, 180_000)

  it('runs the same story against the real BFF and sandbox, and keeps controls in the link', async () => {
    const { page, errors } = await openStory('?story=no-offers&mode=bff&theme=dark&width=420')
    await waitForStatus(page, ['complete'], HOST)
    const view = await readWidget(page, HOST)
    expect(view?.empty).toBe(true)
    expect(
      await page.evaluate(() =>
        document
          .querySelector('#widget')
          ?.shadowRoot?.querySelector('.ow-root')
          ?.getAttribute('data-ow-theme'),
      ),
    ).toBe('dark')
    expect(await page.locator('.pg-log li', { hasText: '/api/offer-searches' }).count()).toBeGreaterThan(0)
    await page.click('a:has-text("Disclaimers")')
    await page.waitForURL(/story=disclaimers/)
    expect(page.url()).toContain('mode=bff')
    expect(page.url()).toContain('theme=dark')
    await waitForStatus(page, ['complete'], HOST)
    expect((await readWidget(page, HOST))?.disclaimers.length).toBeGreaterThan(0)
    await screenshot(page, 'story-disclaimers-real-bff')
    expect(scriptErrors(errors)).toEqual([])
    await page.close()
  })
})
