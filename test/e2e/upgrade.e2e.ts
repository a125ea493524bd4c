/**
 * @module Issue 32 in real Chromium: snippets that outlive deploys. A publisher page on its own origin
 * carries what `npm run snippet` printed for build A (the default, stable form with a ZIP mount point, and
 * the pinned SRI form); the BFF is then upgraded on the same origin to build B, a real second build of the
 * embed (config/vite.embed.config.ts into another folder, one statement added so its bytes and hash differ, which
 * the page can see). After the upgrade: a returning visitor (bundle A still fresh in the cache) and a new
 * one (bundle B) both get offers from one POST and fire the pixels of the offers on screen; the pinned page
 * runs bundle A, served from the archive under DATA_DIR, for the retention period; past it, the hashed URL
 * answers a 404 saying why and what to paste. The archive's clock is the test's.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { EmbedBundle } from '../../src/embed/manifest.ts'
import { publisherEmbed, readEmbedManifest } from '../../src/publisher/snippet.ts'
import { zipOfScenario } from '../../src/sandbox/scenarios.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createEmbedArchive, type EmbedArchive } from '../../src/server/embed-archive.ts'
import { withEmbedAssets } from '../../src/server/embed-assets.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { nodeStaticFiles } from '../../src/server/static-files.ts'
import { type Browser, collectErrors, launchBrowser } from './support/browser.ts'
import { articlePage } from './support/publisher-origin.ts'
import { REPO_ROOT, requireBuild } from './support/server.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const DAY_MS = 86_400_000
const RETENTION_DAYS = 90
/** What build B adds to the bundle: a real, different build the page can tell apart. */
const BUILD_B_MARK = 'window.offerWidgetBuild="B";'

let buildA: EmbedBundle
let rootB: string
let buildB: EmbedBundle
let archive: EmbedArchive
let dataDir: string
let clock = Date.now()
let publisher: { url: string; server: Server; pages: Map<string, string> }
let bff: RunningServer | undefined
let bffPort = 0
let browser: Browser

/** Build B: the embed build as `npm run build` makes it, into `<root>/dist/embed`, with one statement more. */
async function buildSecondBundle(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'offer-widget-build-b-'))
  // As `npm run build` runs it: vitest's NODE_ENV=test would make the React plugin emit development JSX.
  vi.stubEnv('NODE_ENV', 'production')
  await viteBuild({
    configFile: join(REPO_ROOT, 'config/vite.embed.config.ts'),
    logLevel: 'warn',
    build: { outDir: join(root, 'dist/embed'), emptyOutDir: true },
    plugins: [
      {
        name: 'e2e-build-b',
        generateBundle(_options, bundle) {
          for (const output of Object.values(bundle)) {
            if (output.type === 'chunk') output.code = `${output.code}\n${BUILD_B_MARK}\n`
          }
        },
      },
    ],
  }).finally(() => vi.unstubAllEnvs())
  return root
}

/** Starts the BFF on `root`'s build, on the same port as before (the origin pasted in the pages). */
async function startBff(root: string): Promise<RunningServer> {
  const running = await startServer(
    loadConfig({
      PORT: String(bffPort),
      LOG_LEVEL: 'silent',
      RATE_LIMIT_POINTS: '100000',
      ALLOWED_ORIGINS: publisher.url,
    }),
    {
      staticFiles: withEmbedAssets(nodeStaticFiles(root), { root, archive }),
      secondLook: { inMemoryLedger: true },
    },
  )
  bffPort = running.port
  return running
}

async function upgradeTo(root: string): Promise<void> {
  await bff?.close()
  bff = await startBff(root)
}

async function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  )
}

beforeAll(async () => {
  buildA = requireBuild()
  rootB = await buildSecondBundle()
  buildB = readEmbedManifest(rootB) as EmbedBundle
  dataDir = mkdtempSync(join(tmpdir(), 'offer-widget-data-'))
  mkdirSync(join(dataDir, 'embed'))
  archive = createEmbedArchive({
    dir: join(dataDir, 'embed'),
    retentionDays: RETENTION_DAYS,
    timers: { now: () => clock },
  })
  const pages = new Map<string, string>()
  const server = createServer((request, response) => {
    const html = pages.get((request.url ?? '/').split('?')[0] ?? '/')
    if (html === undefined) response.writeHead(404).end()
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  publisher = { url: await listen(server), server, pages }
  bff = await startBff(REPO_ROOT)
  // What the publisher pasted while the BFF ran build A: the printed block with its ZIP mount point in
  // use, and on another page the pinned alternative the command printed.
  const embed = publisherEmbed(buildA, bff.url)
  const [, style, , , zipLine] = embed.pasteBlock.split('\n') as string[]
  const mount = (zipLine as string).replace(/ -->$/, '').replace('94107', zipOfScenario('offers-arriving'))
  pages.set('/stable.html', articlePage(`${style}\n${mount}\n${embed.snippet}`))
  pages.set('/pinned.html', articlePage(`${style}\n${mount}\n${embed.pinned.snippet}`))
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await bff?.close()
  publisher?.server.closeAllConnections()
  await new Promise((done) => publisher?.server.close(done))
  for (const dir of [rootB, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true })
})

interface Visit {
  page: Page
  errors: string[]
  /** POSTs to the BFF's search endpoint the page made. */
  searches: () => number
  /** The bundle's responses: URL and status. */
  bundles: { url: string; status: number }[]
}

/** Opens a publisher page; `fresh` clears the browser's HTTP cache first (a visitor who never came). */
async function visit(path: string, { fresh }: { fresh: boolean }): Promise<Visit> {
  const page = await browser.context.newPage()
  if (fresh) await (await browser.context.newCDPSession(page)).send('Network.clearBrowserCache')
  const errors = collectErrors(page)
  let searches = 0
  const bundles: { url: string; status: number }[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/offer-searches')) searches += 1
  })
  page.on('response', (response) => {
    if (/\/embed\/.*offer-widget.*\.js$/.test(response.url()))
      bundles.push({ url: response.url(), status: response.status() })
  })
  await page.goto(`${publisher.url}${path}`)
  return { page, errors, searches: () => searches, bundles }
}

/** Which build ran on the page: 'B' for build B, 'A' for the repository's build. */
function buildOf(page: Page): Promise<string> {
  return page.evaluate(() => (window as { offerWidgetBuild?: string }).offerWidgetBuild ?? 'A')
}

async function pixelHits(): Promise<Record<string, number>> {
  return (await (await fetch(`${bff?.url}/sandbox/pixels/hits`)).json()) as Record<string, number>
}

/** Offers on screen from one POST, and every offer on screen fired its pixels. */
async function expectOffersAndPixels(visit: Visit): Promise<void> {
  await waitForStatus(visit.page, ['complete'])
  const view = await readWidget(visit.page)
  expect(view?.offerUuids.length).toBeGreaterThan(0)
  // The snippet's early search, adopted by the bundle: one POST, whichever bundle ran.
  expect(visit.searches()).toBe(1)
  const unfired = async () => {
    const fired = new Set(
      Object.keys(await pixelHits()).map((url) => url.split('/pixels/')[1]?.split('/')[0]),
    )
    return (view?.offerUuids ?? []).filter((uuid) => !fired.has(uuid))
  }
  await expect.poll(unfired, { timeout: 10_000 }).toEqual([])
  expect(visit.errors).toEqual([])
}

describe('a page pasted with build A, after the BFF is upgraded to build B', () => {
  it('builds really differ: another hash, another integrity, the same line', () => {
    expect(buildB.file).not.toBe(buildA.file)
    expect(buildB.integrity).not.toBe(buildA.integrity)
    expect(buildB.version).toBe(buildA.version)
  })

  it('before the upgrade: the pinned page and the stable page run build A', async () => {
    // The stable page last: its bundle stays in the cache for the returning visitor below.
    for (const path of ['/pinned.html', '/stable.html']) {
      const seen = await visit(path, { fresh: true })
      await expectOffersAndPixels(seen)
      expect(await buildOf(seen.page)).toBe('A')
      await seen.page.close()
    }
  })

  it('after it: a returning visitor (bundle A still fresh in the cache) and a new one (bundle B) both see offers and fire pixels', async () => {
    // The returning visitor's cache holds bundle A from the test before, 5 minutes fresh.
    await upgradeTo(rootB)
    await fetch(`${bff?.url}/sandbox/pixels/hits`, { method: 'DELETE' })
    const returning = await visit('/stable.html', { fresh: false })
    await expectOffersAndPixels(returning)
    expect(await buildOf(returning.page)).toBe('A')
    await returning.page.close()

    await fetch(`${bff?.url}/sandbox/pixels/hits`, { method: 'DELETE' })
    const newcomer = await visit('/stable.html', { fresh: true })
    await expectOffersAndPixels(newcomer)
    expect(await buildOf(newcomer.page)).toBe('B')
    expect(newcomer.bundles).toEqual([{ url: `${bff?.url}/embed/v0.1/offer-widget.js`, status: 200 }])
    await newcomer.page.close()
  })

  it('the pinned page keeps running bundle A, its SRI checked, for the retention period', async () => {
    clock += RETENTION_DAYS * DAY_MS
    await fetch(`${bff?.url}/sandbox/pixels/hits`, { method: 'DELETE' })
    const pinned = await visit('/pinned.html', { fresh: true })
    await expectOffersAndPixels(pinned)
    expect(await buildOf(pinned.page)).toBe('A')
    expect(pinned.bundles).toEqual([{ url: `${bff?.url}/embed/${buildA.file}`, status: 200 }])
    await pinned.page.close()
  })

  it('past the retention period the pinned URL answers a 404 saying why and what to paste; the stable page still works', async () => {
    clock += DAY_MS
    const pinned = await visit('/pinned.html', { fresh: true })
    await pinned.page.waitForSelector('script[data-offer-widget-state="failed"]', { state: 'attached' })
    expect(pinned.bundles).toEqual([{ url: `${bff?.url}/embed/${buildA.file}`, status: 404 }])
    await pinned.page.close()
    const answer = await fetch(`${bff?.url}/embed/${buildA.file}`)
    expect(answer.status).toBe(404)
    expect(answer.headers.get('link')).toBe('</embed/v0.1/offer-widget.js>; rel="latest-version"')
    const { message } = (await answer.json()) as { message: string }
    expect(message).toContain(`replaced by a newer build more than ${RETENTION_DAYS} days ago`)
    expect(message).toContain('npm run snippet')

    // A restart prunes it from the archive too, and the stable page is untouched by any of it.
    await upgradeTo(rootB)
    expect(await archive.find(buildA.file)).toBeUndefined()
    const stable = await visit('/stable.html', { fresh: true })
    await expectOffersAndPixels(stable)
    expect(await buildOf(stable.page)).toBe('B')
    await stable.page.close()
  })
})
