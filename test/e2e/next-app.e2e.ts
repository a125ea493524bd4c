/**
 * @module A real Next.js app built as a publisher's would be: today's scaffold (`create-next-app@latest`
 * with its defaults: App Router, TypeScript, Tailwind, Turbopack, `cacheComponents: true`), its config left
 * exactly as generated, the packed tarballs (`npm run pack`) installed into it. A server component creates
 * the search for the visitor (`readVisitor(await headers())`, `createServerSearch`, inside `<Suspense>`)
 * and renders `<OfferWidget>` from the package with it attached; a route handler hosts the BFF
 * (`createRouteHandlers`). Both files are README's blocks as written (`nextjs-page`, `nextjs`); the fixture
 * replaces the scaffold's pages with the layout, `/es` and `/styled`. `next build`, then `next start` on a
 * random port behind one edge proxy, against the sandbox as the upstream (with a token, as in production).
 * In Chromium: the first HTML has offer cards, hydration completes with more offers, each pixel fires once,
 * no console error; a visitor's own `X-Forwarded-For` does not choose their address; a crawler gets the
 * page (client-rendered widget), not a 500. Nothing is downloaded but npm packages.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedSandbox, serveSandbox } from '../../src/sandbox/index.ts'
import { block } from '../docs/support/readme-blocks.ts'
import { REPO, removeScratch, tarball } from '../package/support/scratch-project.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { type EdgeProxy, startEdgeProxy } from './support/edge-proxy.ts'

const execFileAsync = promisify(execFile)
const FIXTURE = join(REPO, 'test/e2e/fixtures/next-app')
/** Whatever a publisher gets today: the e2e follows the scaffold as it changes. */
const CREATE_NEXT_APP = 'latest'
/** The visitor's public address as the edge proxy reports it (loopback is not a visitor's address). */
const VISITOR_ADDRESS = '81.2.69.160'
const SCRATCH_TIMEOUT = 600_000
const VISITOR_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

let dir = ''
let sandbox: ServedSandbox
let next: ChildProcess | undefined
let nextUrl = ''
let edge: EdgeProxy
let browser: Browser
let nextOutput = ''
let scaffoldConfig = ''

/** No telemetry, and nothing of the repository's environment (a publisher's server has none of it). */
const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? tmpdir(),
  NEXT_TELEMETRY_DISABLED: '1',
  CI: '1',
})

async function npm(args: string[]) {
  await execFileAsync('npm', args, { cwd: dir, env: baseEnv(), maxBuffer: 16 * 1024 * 1024 })
}

async function startNext(env: Record<string, string>): Promise<string> {
  const child = spawn(
    process.execPath,
    [join(dir, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', '0'],
    { cwd: dir, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  next = child
  return new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      nextOutput += chunk.toString()
      const match = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(nextOutput)
      if (match && /Ready in/.test(nextOutput)) resolve(match[1] as string)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`next start exited with ${code}:\n${nextOutput}`)))
  })
}

beforeAll(async () => {
  // Today's scaffold, as a publisher starts: `create-next-app@latest` with its defaults (TypeScript, App
  // Router, Tailwind, Turbopack, `next.config.ts` with `cacheComponents: true`), its config left as generated.
  const parent = mkdtempSync(join(tmpdir(), 'offer-widget-next-'))
  dir = join(parent, 'publisher-next')
  await execFileAsync(
    'npx',
    ['--yes', `create-next-app@${CREATE_NEXT_APP}`, dir, '--yes', '--skip-install', '--disable-git'],
    { cwd: parent, env: baseEnv(), maxBuffer: 16 * 1024 * 1024 },
  )
  scaffoldConfig = readFileSync(join(dir, 'next.config.ts'), 'utf8')
  // The scaffold's pages are replaced by the publisher's: its layout loads Google fonts (no network here).
  rmSync(join(dir, 'app'), { recursive: true, force: true })
  cpSync(join(FIXTURE, 'app'), join(dir, 'app'), { recursive: true })
  writeFileSync(join(dir, 'app/page.tsx'), `${block('nextjs-page').code}\n`)
  mkdirSync(join(dir, 'app/api/[...path]'), { recursive: true })
  writeFileSync(join(dir, 'app/api/[...path]/route.ts'), `${block('nextjs').code}\n`)
  // The scaffold's own dependencies (Next, React, TypeScript, Tailwind) and the two packed tarballs.
  await npm([
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    tarball('offer-widget'),
    tarball('offer-widget-server'),
    // The page CSS of /styled: what React apps commonly carry (Tailwind is the scaffold's).
    'bootstrap@5',
  ])
  console.log(`create-next-app@${CREATE_NEXT_APP} wrote next.config.ts:\n${scaffoldConfig}`)
  await execFileAsync(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: dir,
    env: baseEnv(),
    maxBuffer: 16 * 1024 * 1024,
  })
  sandbox = await serveSandbox({ port: 0 })
  // Next needs its public URL (the edge's) at start, and the edge needs Next's address: the edge first.
  edge = await startEdgeProxy(() => nextUrl, VISITOR_ADDRESS)
  // README's "try it against the sandbox" `.env.local` as written, but for the addresses this run was given.
  const addresses: Record<string, string> = {
    ENGINE_BASE_URL_TEST: `${sandbox.url}/test`,
    PUBLIC_BASE_URL: edge.url,
    OFFERS_BFF_URL: edge.url,
  }
  const envLocal = block('nextjs-env')
    .code.split('\n')
    .map((line) => {
      const name = line.slice(0, line.indexOf('='))
      return name in addresses ? `${name}=${addresses[name]}` : line
    })
  writeFileSync(join(dir, '.env.local'), `${envLocal.join('\n')}\n`)
  nextUrl = await startNext({ LOG_LEVEL: 'warn' })
  // A visitor's Chrome: the server search refuses `HeadlessChrome` as a bot (isbot), so the page would fall
  // back to the client-rendered widget and the first HTML would hold no card.
  browser = await launchBrowser({ userAgent: VISITOR_CHROME })
}, SCRATCH_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  if (next?.pid && next.exitCode === null) {
    const exited = new Promise((done) => next?.once('exit', done))
    process.kill(-next.pid, 'SIGTERM')
    await exited
  }
  await edge?.close()
  await sandbox?.close()
  removeScratch(dirname(dir))
}, 60_000)

describe('Next.js App Router app installed from the packed tarballs', () => {
  it('first HTML has offer cards, hydration brings more, each pixel fires once, no console error', async () => {
    sandbox.sandbox.resetPixelHits()
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    const apiCalls: string[] = []
    page.on('request', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${pathname}`)
    })
    const failed: string[] = []
    page.on('response', (answer) => {
      if (answer.status() >= 400) failed.push(`${answer.status()} ${answer.url()}`)
    })
    // A visitor who writes their own X-Forwarded-For does not choose their address: the edge appends the
    // one it saw, and readVisitor takes the rightmost entry past the trusted proxy. A private address
    // chosen here would be refused by the BFF, and the first HTML would have no offers.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '10.9.8.7' })
    const response = await page.goto(`${edge.url}/`)
    const html = (await response?.text()) ?? ''
    const firstCards = [...html.matchAll(/data-offer-uuid="([^"]+)"/g)].map((m) => m[1] as string)
    expect(firstCards.length, nextOutput).toBeGreaterThan(0)
    await page.waitForFunction(
      () => document.querySelector('.ow-root')?.getAttribute('data-ow-status') === 'complete',
      null,
      {
        timeout: 45_000,
        polling: 100,
      },
    )
    const final = await page.evaluate(() => ({
      cards: [...document.querySelectorAll<HTMLElement>('.ow-card[data-offer-uuid]')].map(
        (card) => card.dataset.offerUuid ?? '',
      ),
      text: document.querySelector('.ow-root')?.textContent ?? '',
    }))
    const completed = Number(/(\d+) offers/.exec(final.text)?.[1] ?? 0)
    expect(completed).toBeGreaterThan(firstCards.length)
    // Hydrated, not replaced: the browser only polled the server's search and measured what it showed of it
    // (docs/placements.md); it never created one.
    const posts = apiCalls.filter((call) => call.startsWith('POST'))
    expect(posts.filter((call) => !/^POST \/api\/offer-searches\/[\w-]+\/measure$/.test(call))).toEqual([])
    expect(posts.length).toBeGreaterThan(0)
    expect(apiCalls.filter((call) => call.startsWith('GET /api/offer-searches/')).length).toBeGreaterThan(0)
    const hits = () => sandbox.sandbox.pixelHits()
    await expect
      .poll(() => Object.keys(hits()).length, { timeout: 10_000, interval: 100 })
      .toBeGreaterThanOrEqual(final.cards.length)
    for (const [url, count] of Object.entries(hits())) expect(count, url).toBe(1)
    expect(errors, failed.join('\n')).toEqual([])
    await screenshot(page, 'next-app-1280')
    await page.close()
  })

  it('the Spanish label pack, imported by the server component, renders on the server', async () => {
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    const response = await page.goto(`${edge.url}/es`)
    expect(await response?.text()).toContain('Sus ofertas de seguro de auto')
    await page.waitForFunction(
      () => document.querySelector('.ow-root')?.getAttribute('data-ow-status') === 'complete',
      null,
      {
        timeout: 45_000,
        polling: 100,
      },
    )
    expect(await page.textContent('.ow-root')).toMatch(/Búsqueda completa: \d+ ofertas\./)
    // WCAG 3.1.2: the pack says its language, so a screen reader reads it in a Spanish voice.
    expect(await page.getAttribute('.ow-root', 'lang')).toBe('es')
    expect(errors).toEqual([])
    await page.close()
  })

  it('page CSS (Tailwind preflight, Bootstrap reboot, a #root rule) does not restyle the widget', async () => {
    const styles = async (path: string) => {
      const page = await browser.context.newPage()
      const errors = collectErrors(page)
      await page.goto(`${edge.url}${path}`)
      await page.waitForFunction(
        () => document.querySelector('.ow-root')?.getAttribute('data-ow-status') === 'complete',
        null,
        {
          timeout: 45_000,
          polling: 100,
        },
      )
      const read = await page.evaluate(() => {
        const PROPERTIES = [
          'font-family',
          'font-size',
          'font-weight',
          'line-height',
          'letter-spacing',
          'text-transform',
          'color',
          'text-align',
          'margin-top',
          'margin-bottom',
          'padding-top',
          'padding-left',
          'border-top-width',
          'border-top-style',
          'box-sizing',
          'background-color',
          'text-decoration-line',
          'display',
          'list-style-type',
          'cursor',
        ]
        // The same elements on both pages (a server-attached search and a browser one differ in a link or two).
        // A card without long copy: the sandbox's offers vary between searches, and a clamped card's
        // bullets are drawn otherwise on purpose (line-clamp).
        const card = '.ow-card:not([data-ow-clamp])'
        const probes: Array<[string, string?]> = [
          ['.ow-root'],
          ['.ow-root h2'],
          [card],
          [`${card} a`],
          [`${card} ul`],
          [`${card} li`],
          [`${card} li`, '::before'],
          ['.ow-more button'],
          ['.ow-muted'],
          ['.ow-disclaimers'],
        ]
        const out: Record<string, Record<string, string>> = {}
        for (const [selector, pseudo] of probes) {
          const element = document.querySelector(selector)
          if (!element) continue
          const style = getComputedStyle(element, pseudo)
          // Sizes only for the check mark: the widget's own width follows the page's layout (body margin).
          const names = pseudo
            ? [...PROPERTIES, 'content', 'border-right-width', 'width', 'height']
            : PROPERTIES
          out[`${selector}${pseudo ?? ''}`] = Object.fromEntries(
            names.map((name) => [name, style.getPropertyValue(name)]),
          )
        }
        const body = getComputedStyle(document.body)
        return { widget: out, page: { font: body.fontFamily, margin: body.margin } }
      })
      if (path === '/styled') await screenshot(page, 'next-app-page-css')
      await page.close()
      return { ...read, errors }
    }
    const plain = await styles('/')
    const styled = await styles('/styled')
    // The page CSS is really there: Bootstrap's reboot sets the body's font and margin.
    expect(styled.page).not.toEqual(plain.page)
    expect(Object.keys(styled.widget).length).toBeGreaterThanOrEqual(9)
    expect(styled.widget).toEqual(plain.widget)
    expect(styled.errors).toEqual([])
  })

  it('a request with no browser user agent (curl, an uptime check) gets the page, not a 500', async () => {
    for (const userAgent of ['curl/8.5.0', '']) {
      const answer = await fetch(`${edge.url}/`, { headers: { 'user-agent': userAgent } })
      expect(answer.status, userAgent).toBe(200)
      const html = await answer.text()
      expect(html).toContain('class="ow-root"')
      expect(html).not.toContain('data-offer-uuid')
    }
    // README's page says why it fell back, with the field to fix.
    expect(nextOutput).toMatch(/offers: no server search, the browser will search: .*visitor\.userAgent/)
  })
})
