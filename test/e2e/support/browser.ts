/**
 * @module Launches Debian's Chromium through playwright-core with the flags that work on this machine
 * and a fresh profile per launch; never downloads a browser.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'

export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Flags: headless as root in a sandboxless container, and no calls home (the network is closed here). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Browser {
  context: BrowserContext
  close(): Promise<void>
}

/** A visitor's Chrome: headless Chromium names itself `HeadlessChrome`, which the BFF refuses as a declared bot. */
const VISITOR_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** `userAgent`: a visitor's Chrome unless given; headless Chromium's own would be refused as a bot's. */
export async function launchBrowser(options: { userAgent?: string } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'offer-widget-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    userAgent: options.userAgent ?? VISITOR_CHROME,
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/**
 * Opens `url` in a Chromium that no DevTools session is attached to, as a visitor's browser is: for
 * main-thread timings, which a session skews. With Playwright attached, V8 re-parses functions to collect
 * their source positions on the main thread while the bundle runs (`V8.CollectSourcePositions`, 31-44 ms
 * of a 42-61 ms task in a trace), which no visitor's browser does. The page reports its own figures (to
 * its server); `close()` ends the browser and deletes its profile.
 */
export function openWithoutDevTools(url: string): { close(): Promise<void> } {
  const profile = mkdtempSync(join(tmpdir(), 'offer-widget-chromium-'))
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_FLAGS,
      `--user-data-dir=${profile}`,
      '--window-size=1280,900',
      `--user-agent=${VISITOR_CHROME}`,
      url,
    ],
    {
      stdio: 'ignore',
      detached: true,
    },
  )
  const exited = once(child, 'exit')
  return {
    async close() {
      // The whole process group: the renderer and GPU processes write into the profile until they end.
      try {
        if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // Already gone: it exited before its 'exit' event was handled.
      }
      await exited
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 })
    },
  }
}

export const SCREENSHOT_DIR = resolve('test-results/e2e-screenshots')

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/** Collects console errors and uncaught page errors so a test can assert there were none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}
