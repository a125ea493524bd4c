/**
 * @module The cross-engine suite, run once per engine (test/e2e/engines/*.e2e.ts): the demo page, a
 * publisher page on another origin (page, BFF and tracker on three origins), the server-rendered demo and
 * the playground, each at 1280 px and at 375 px. Each asserts offer cards render, no uncaught error or
 * unhandled rejection in any frame, every impression pixel requested exactly once (counted at the server
 * that answers it), and that a real click on "View rate" opens the offer's click URL. 375 px is an iframe
 * of that width in a 1280 px window in both engines: MiniBrowser's window cannot be narrower than about
 * 447 px, and one way for both keeps the two engines' results comparable.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snippetFor } from '../../../src/publisher/snippet.ts'
import { zipOfScenario } from '../../../src/sandbox/scenarios.ts'
import { loadConfig } from '../../../src/server/config.ts'
import { withEmbedAssets } from '../../../src/server/embed-assets.ts'
import { type RunningServer, startServer } from '../../../src/server/start-server.ts'
import { nodeStaticFiles } from '../../../src/server/static-files.ts'
import { announceSkip } from '../../support/skip-notice.ts'
import { cardTrustInPage, FIGURE_SOURCE } from './card-trust.ts'
import {
  collectingFront,
  ERRORS_GLOBAL,
  type Front,
  NARROW_FRAME,
  narrowUrl,
  type Publisher,
  startPublisher,
  startTracker,
  type Tracker,
} from './engine-pages.ts'
import { type EngineBrowser, type EngineName, launchEngine } from './engines.ts'
import { rankedCarriers } from './ranked-carriers.ts'
import { REPO_ROOT, requireBuild } from './server.ts'

const PAGES = ['demo', 'publisher on another origin', 'server-rendered demo', 'playground'] as const
const ZIP = zipOfScenario('offers-arriving')
const WIDE = { width: 1280, height: 900 }
const PHONE = 375
/** Screenshots go here (ENGINE_SHOTS_DIR to choose; not in the repository). */
const SHOTS_DIR = resolve(process.env.ENGINE_SHOTS_DIR ?? 'test-results/e2e-screenshots/engines')

interface PageUnderTest {
  /** Origin the page is served from. */
  origin: string
  path: string
  /** The iframes between the page and the widget's document (the playground's preview frame). */
  frames: string[]
  host: string
  /** Every pixel hit so far at the server that answers them, by URL. */
  pixelHits(): Promise<Record<string, number>>
  /** Times `href` was reached at the tracker, where the test counts it there. */
  landingHits?(href: string): number
  /** The widget's measures the BFF has received so far (docs/placements.md), where the test counts them. */
  measures?(): Promise<{ shown: number; clicked: number }>
}

/** A counter of `bff_search_events_total` with both labels, whatever their order; 0 before its first count. */
function searchEvents(metrics: string, kind: string, outcome: string): number {
  const line = metrics
    .split('\n')
    .find(
      (l) =>
        l.startsWith('bff_search_events_total{') &&
        l.includes(`kind="${kind}"`) &&
        l.includes(`outcome="${outcome}"`),
    )
  return line ? Number(line.split(' ').at(-1)) : 0
}

export function engineSuite(name: EngineName): void {
  let sandboxBff: RunningServer
  let front: Front
  let crossBff: RunningServer
  let tracker: Tracker
  let publisher: Publisher
  let browser: EngineBrowser

  beforeAll(async () => {
    const manifest = requireBuild()
    if (!existsSync(`${REPO_ROOT}/dist/ssr/render-widget-html.js`)) {
      throw new Error('e2e: dist/ssr is missing; run npm run build first')
    }
    // The BFF as `npm start` runs it: sandbox, demo route with the server renderer, playground.
    sandboxBff = await startServer(
      loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_POINTS: '100000' }),
      { secondLook: false },
    )
    front = await collectingFront(sandboxBff.app)
    // Three origins: the publisher's is known before the BFF starts, as its allow-list names it.
    tracker = await startTracker()
    publisher = await startPublisher()
    crossBff = await startServer(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_POINTS: '100000',
        ENGINE_TOKEN: 'sandbox-test-token',
        ENGINE_ENV: 'test',
        ENGINE_BASE_URL_TEST: `${tracker.url}/test`,
        SESSION_SECRET: 'e2e-engines-cross-origin-0123456789abcdef',
        ALLOWED_ORIGINS: publisher.url,
        PUBLIC_BASE_URL: 'https://offers.example.com',
      }),
      { staticFiles: withEmbedAssets(nodeStaticFiles(REPO_ROOT), { root: REPO_ROOT }), secondLook: false },
    )
    publisher.html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Publisher</title>
<link rel="icon" href="data:,"><style>body{font:16px/1.5 Georgia,serif;margin:0 auto;max-width:760px;padding:16px}</style>
</head><body><h1>Car insurance</h1><p>Compare quotes from carriers near you.</p>
<div data-offer-widget data-endpoint="${crossBff.url}" data-zip-code="${ZIP}" data-placement="engine-hero" style="display:block;min-height:560px"></div>
<p>Prices are estimates until you finish the carrier's application.</p>
<script>${snippetFor(manifest, crossBff.url)}</script></body></html>`
    browser = await launchEngine(name)
    console.log(`${name} ${browser.version}; screenshots: ${SHOTS_DIR}`)
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([
      front?.close(),
      sandboxBff?.close(),
      crossBff?.close(),
      tracker?.close(),
      publisher?.close(),
    ])
  })

  const sandboxHits = async () =>
    (await (await fetch(`${sandboxBff.url}/sandbox/pixels/hits`)).json()) as Record<string, number>

  const pages = (): Record<(typeof PAGES)[number], PageUnderTest> => ({
    demo: {
      origin: front.url,
      path: `/demo.html?zip=${ZIP}`,
      frames: [],
      host: '[data-offer-widget]',
      pixelHits: sandboxHits,
    },
    'publisher on another origin': {
      origin: publisher.url,
      path: '/',
      frames: [],
      host: '[data-offer-widget]',
      // The first hop of each pixel (the 302) is what the widget asked for; the final hop is checked below.
      pixelHits: async () => Object.fromEntries(tracker.firstHops),
      landingHits: (href) => {
        const url = new URL(href)
        return tracker.landings.get(url.pathname + url.search) ?? 0
      },
      // This BFF keeps no ledger (no second look): what it received is counted as `unrecorded`.
      measures: async () => {
        const metrics = await (await fetch(`${crossBff.url}/metrics`)).text()
        return {
          shown: searchEvents(metrics, 'shown', 'unrecorded'),
          clicked: searchEvents(metrics, 'clicked', 'unrecorded'),
        }
      },
    },
    'server-rendered demo': {
      origin: front.url,
      path: `/demo.html?ssr=1&zip=${ZIP}`,
      frames: [],
      host: '[data-offer-widget]',
      pixelHits: sandboxHits,
    },
    playground: {
      origin: front.url,
      path: '/?story=offers-arriving&mode=bff',
      frames: ['iframe.pg-frame'],
      host: '#widget',
      pixelHits: sandboxHits,
    },
  })

  /** Opens `page` at `width` (375: in the narrow frame); resolves with the frames to the page's document. */
  async function open(page: PageUnderTest, width: number): Promise<string[]> {
    const narrow = width < WIDE.width
    const url = narrow ? narrowUrl(page.origin, page.path, width) : `${page.origin}${page.path}`
    await browser.open(url, WIDE)
    const outer = narrow ? [NARROW_FRAME] : []
    await browser.enterFrames(outer)
    expect(await browser.evaluate(() => innerWidth), 'the page is as wide as asked').toBe(width)
    return outer
  }

  const completed = (host: string) =>
    browser.waitFor(
      (selector: string) =>
        document.querySelector(selector)?.shadowRoot?.querySelector<HTMLElement>('.ow-root')?.dataset
          .owStatus === 'complete',
      [host],
      'the search to complete',
    )

  async function check(page: PageUnderTest, width: number, shot: string): Promise<void> {
    const measuredBefore = await page.measures?.()
    const outer = await open(page, width)
    await browser.enterFrames([...outer, ...page.frames])
    await completed(page.host)
    if (page.frames.length > 0) {
      // A frame holding the widget grows to its content (the playground's preview tells its height):
      // nothing of the widget is cut off or scrolls inside it.
      await browser.enterFrames(outer)
      await browser.waitFor(
        (frame: string) => {
          const element = document.querySelector<HTMLIFrameElement>(frame)
          const content = element?.contentDocument?.documentElement.scrollHeight ?? Number.POSITIVE_INFINITY
          return element !== null && content <= (element?.clientHeight ?? 0) + 1
        },
        [page.frames[0]],
        `${page.frames[0]} to be as tall as its content`,
        10_000,
      )
      await browser.enterFrames([...outer, ...page.frames])
    }
    const view = await browser.evaluate((host: string) => {
      const root = document.querySelector(host)?.shadowRoot
      return {
        cards: [...(root?.querySelectorAll<HTMLElement>('.ow-card') ?? [])].map((card) => ({
          uuid: card.dataset.offerUuid ?? '',
          carrier: card.querySelector('.ow-carrier')?.textContent?.trim() ?? '',
          href: card.querySelector<HTMLAnchorElement>('a.ow-cta')?.href ?? '',
          height: card.getBoundingClientRect().height,
        })),
      }
    }, page.host)
    // Issue 41: every disclaimer on screen tied to a card on screen, no figure clipped, no "best".
    expect(await browser.evaluate(cardTrustInPage, page.host, FIGURE_SOURCE)).toEqual([])
    // The search ends with the best offers on screen in ascending rank, with no tap (issue 31).
    expect(
      view.cards.map((card) => card.carrier),
      'the cards on screen at completion, by rank',
    ).toEqual(rankedCarriers(ZIP).slice(0, 3))
    for (const card of view.cards) {
      expect(card.carrier, card.uuid).not.toBe('')
      expect(card.height, `${card.carrier} is drawn`).toBeGreaterThan(40)
      expect(card.href, card.carrier).toMatch(/\/landing\//)
    }

    // Every card on screen fired its pixels, and no pixel was asked for twice (offer uuids are new in
    // every search, so any URL counted twice anywhere is a repeat).
    const firedFor = (hits: Record<string, number>, uuid: string) =>
      Object.keys(hits).filter((url) => url.includes(`/pixels/${uuid}/`)).length
    await expect
      .poll(
        async () => {
          const hits = await page.pixelHits()
          return view.cards.filter((card) => firedFor(hits, card.uuid) === 0).map((card) => card.carrier)
        },
        { timeout: 10_000, message: 'cards whose pixels did not fire' },
      )
      .toEqual([])
    const repeated = () =>
      page.pixelHits().then((hits) => Object.entries(hits).filter(([, count]) => count !== 1))
    expect(await repeated()).toEqual([])
    if (page.landingHits) {
      // Behind the 302, every final hop once too.
      const finals = tracker.finalHits()
      for (const [url] of tracker.firstHops) expect(finals[`${url}?hop=final`], url).toBe(1)
    }

    // A real click on the first card's "View rate" opens its click URL in a new tab.
    const first = view.cards[0]
    const opened = await browser.clickOpeningWindow(
      (host: string) => document.querySelector(host)?.shadowRoot?.querySelector('.ow-card a.ow-cta'),
      page.host,
    )
    expect(opened).toBe(first?.href)
    if (page.landingHits) expect(page.landingHits(first?.href ?? '')).toBe(1)
    if (page.measures && measuredBefore) {
      // The offers shown and the click reached the BFF on its own origin (a keepalive fetch after a CORS
      // preflight): the publisher's placement report counts insurance clicks only from these.
      await expect
        .poll(
          async () => {
            const now = await page.measures?.()
            return {
              shown: (now?.shown ?? 0) > measuredBefore.shown,
              clicked: (now?.clicked ?? 0) - measuredBefore.clicked,
            }
          },
          { timeout: 10_000, message: 'the widget’s measures at the BFF' },
        )
        .toEqual({ shown: true, clicked: 1 })
    }

    await shoot(`${name}-${shot}-${width}.png`, page.host, outer.length > 0)

    // No uncaught error in any document of the page (the collector must be in each, or it says so).
    await browser.enterFrames([])
    const errors = await browser.evaluate((global: string) => {
      const found: string[] = []
      const walk = (w: Window) => {
        const seen = (w as unknown as Record<string, string[] | undefined>)[global]
        if (seen) found.push(...seen)
        else if (w.location.href !== 'about:blank') found.push(`no error collector in ${w.location.href}`)
        for (let i = 0; i < w.frames.length; i++) walk(w.frames[i] as Window)
      }
      walk(window)
      return found
    }, ERRORS_GLOBAL)
    expect(errors).toEqual([])
    // Still once each, after the click and the rest of the visit.
    expect(await repeated()).toEqual([])
  }

  describe(`${name}: offers on every page visitors meet`, () => {
    for (const width of [WIDE.width, PHONE]) {
      for (const key of PAGES) {
        it(`${key} at ${width} px: cards, no error, pixels once, View rate opens the click URL`, async () => {
          await check(pages()[key], width, key.split(' ')[0] ?? key).catch((error: unknown) => {
            // Printed as it happens: vitest reports only the last try's error, so a retried one would be lost.
            console.log(`${name}: ${key} at ${width} px failed: ${String(error)}`)
            throw error
          })
        })
      }
    }
  })

  /**
   * A PNG of the whole page once the widget's transitions have ended (the progress bar eases to full after
   * "Search complete"); a narrow frame is first made as tall as the page in it (up to 3700 px, what a
   * WebKit window on the suite's X screen holds).
   */
  async function shoot(file: string, host: string, narrow: boolean): Promise<void> {
    await browser.evaluate(
      (selector: string) =>
        Promise.all(
          (document.querySelector(selector)?.shadowRoot?.getAnimations() ?? [])
            // An endless one (a spinner) never finishes.
            .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
            .map((a) => a.finished),
        ).then(() => true),
      host,
    )
    if (narrow) {
      await browser.enterFrames([])
      await browser.evaluate((frame: string) => {
        const element = document.querySelector<HTMLIFrameElement>(frame)
        const height = element?.contentDocument?.documentElement.scrollHeight ?? 0
        if (element) element.style.height = `${Math.min(height, 3700)}px`
        // From its top: the click on "View rate" scrolled the page in the frame to reach the button.
        element?.contentWindow?.scrollTo(0, 0)
      }, NARROW_FRAME)
    }
    await browser.screenshot(join(SHOTS_DIR, file), narrow ? NARROW_FRAME : undefined)
  }

  // The 1280 and 375 px shots come with the checks above; these two widths are for looking at, on demand.
  const more = process.env.ENGINE_SHOTS_DIR ? it : (it.skip as typeof it)
  if (!process.env.ENGINE_SHOTS_DIR) {
    announceSkip(
      `the ${name} screenshots at 360 and 768 px`,
      'ENGINE_SHOTS_DIR is unset (set it to a folder for them)',
    )
  }
  describe(`${name}: screenshots`, () => {
    more(
      'the demo and the publisher page at 360 and 768 px, with offers',
      async () => {
        const shots = pages()
        for (const key of ['demo', 'publisher on another origin'] as const) {
          const page = shots[key]
          for (const width of [360, 768]) {
            const narrow = width < 447
            const url = narrow ? narrowUrl(page.origin, page.path, width) : `${page.origin}${page.path}`
            await browser.open(url, narrow ? WIDE : { width, height: 900 })
            await browser.enterFrames(narrow ? [NARROW_FRAME] : [])
            await completed(page.host)
            const count = await browser.evaluate(
              (host: string) => document.querySelector(host)?.shadowRoot?.querySelectorAll('.ow-card').length,
              page.host,
            )
            expect(count, `${key} at ${width}`).toBeGreaterThan(1)
            await shoot(`${name}-${key.split(' ')[0]}-${width}.png`, page.host, narrow)
          }
        }
      },
      120_000,
    )
  })
}
