/**
 * @module The two other browser engines visitors use, from Debian's packages, behind one small interface
 * the cross-engine suite drives: Firefox ESR through puppeteer-core over WebDriver BiDi, and WebKit
 * (WebKitGTK's MiniBrowser) through selenium-webdriver talking to WebKitWebDriver on a private Xvfb
 * display. Neither library downloads anything: puppeteer-core gets the executable's path, and selenium
 * talks to a WebKitWebDriver this module starts (a server URL, so selenium-manager never runs).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import puppeteer, {
  type ElementHandle,
  type Frame,
  type Page,
  type Browser as PuppeteerBrowser,
} from 'puppeteer-core'
import { Builder, By, Capabilities, Key, type WebDriver, type WebElement } from 'selenium-webdriver'

const FIREFOX_PATH = '/usr/bin/firefox-esr'
const WEBKIT_DRIVER_PATH = '/usr/bin/WebKitWebDriver'
/** Debian's webkit2gtk-driver runs the MiniBrowser of libwebkit2gtk-4.1-0 (`dpkg -L` lists it here). */
const MINIBROWSER_PATH = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'
const XVFB_PATH = '/usr/bin/Xvfb'

export type EngineName = 'firefox' | 'webkit'

/** A key a visitor presses, or text typed into the focused control (`selectAll`: Ctrl+A). */
export type KeyPress = 'Tab' | 'Enter' | 'Space' | 'ArrowDown' | 'selectAll' | { text: string }

/** A function run in the page: serialised with `toString()`, so it must not close over anything. */
// biome-ignore lint/suspicious/noExplicitAny: the arguments are whatever the page function takes
type PageFunction<T> = (...args: any[]) => T | Promise<T>

interface Viewport {
  width: number
  height: number
}

export interface EngineBrowser {
  readonly name: EngineName
  readonly version: string
  /** Loads `url` in the one tab with a viewport `width` CSS px wide, and waits for its load event. */
  open(url: string, viewport: Viewport): Promise<void>
  /**
   * Later calls run in the document of the iframe each selector finds in turn, starting from the top
   * page (`[]`: the top page itself).
   */
  enterFrames(selectors: string[]): Promise<void>
  evaluate<T>(fn: PageFunction<T>, ...args: unknown[]): Promise<T>
  /** Polls `fn` in the current document every 100 ms until it returns something truthy. */
  waitFor<T>(fn: PageFunction<T>, args: unknown[], what: string, timeoutMs?: number): Promise<T>
  /**
   * A real click (the driver's pointer) on the element `locate` returns in the current document; resolves
   * with the URL of the window or tab it opened, once that has loaded, and closes it.
   */
  clickOpeningWindow(locate: PageFunction<Element | null | undefined>, ...args: unknown[]): Promise<string>
  /** Real key presses (the driver's keyboard), to whatever has focus: a visitor without a mouse. */
  press(keys: readonly KeyPress[]): Promise<void>
  /** A PNG of the whole top page, or of the element `selector` finds in it (the narrow frame). */
  screenshot(path: string, selector?: string): Promise<void>
  close(): Promise<void>
}

const POLL_MS = 100

async function poll<T>(read: () => Promise<T>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await read()
      if (value) return value
      last = value
    } catch (error) {
      last = error
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${last})`)
    await new Promise((done) => setTimeout(done, POLL_MS))
  }
}

function writePng(path: string, png: Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, typeof png === 'string' ? Buffer.from(png, 'base64') : png)
}

// ---------------------------------------------------------------------------------------------- Firefox

/** Firefox ESR, headless, in a fresh profile; puppeteer-core speaks WebDriver BiDi to it. */
async function launchFirefox(): Promise<EngineBrowser> {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(`e2e: ${FIREFOX_PATH} is missing; apt-get install firefox-esr`)
  const profile = mkdtempSync(join(tmpdir(), 'offer-widget-firefox-'))
  const browser: PuppeteerBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    userDataDir: profile,
    headless: true,
    // No calls home: the network is closed here, and a visitor's first run is not what is tested.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
    },
  })
  const page: Page = await browser.newPage()
  let target: Frame = page.mainFrame()
  let path: string[] = []
  const descend = async (selectors: string[]) => {
    let frame = page.mainFrame()
    for (const selector of selectors) {
      const handle = await frame.waitForSelector(selector)
      const child = await handle?.contentFrame()
      if (!child) throw new Error(`firefox: ${selector} is not a frame`)
      frame = child
    }
    return frame
  }
  return {
    name: 'firefox',
    version: await browser.version(),
    async open(url, viewport) {
      target = page.mainFrame()
      path = []
      await page.setViewport(viewport)
      await page.goto(url, { waitUntil: 'load' })
    },
    async enterFrames(selectors) {
      target = await descend(selectors)
      path = selectors
    },
    evaluate: (fn, ...args) => target.evaluate(fn, ...args),
    waitFor: (fn, args, what, timeoutMs = 30_000) =>
      poll(
        () =>
          target.evaluate(fn, ...args).catch(async (error: unknown) => {
            // The frame was replaced (the playground re-creates its preview): find it again.
            target = await descend(path)
            throw error
          }),
        what,
        timeoutMs,
      ),
    async clickOpeningWindow(locate, ...args) {
      const handle = await target.evaluateHandle(locate, ...args)
      const element = handle.asElement() as ElementHandle<Element> | null
      if (!element) throw new Error('firefox: nothing to click')
      const opened = new Promise<Page>((resolve) =>
        browser.once('targetcreated', (created) => resolve(created.page() as Promise<Page>)),
      )
      await element.click()
      const popup = await opened
      try {
        return await poll(
          async () => {
            const now = popup.url()
            const ready = await popup.evaluate(() => document.readyState).catch(() => '')
            return now !== 'about:blank' && ready === 'complete' ? now : ''
          },
          'the opened tab to load',
          30_000,
        )
      } finally {
        await popup.close()
      }
    },
    async press(keys) {
      for (const key of keys) {
        if (typeof key !== 'string') await page.keyboard.type(key.text)
        else if (key === 'selectAll') {
          await page.keyboard.down('Control')
          await page.keyboard.press('a')
          await page.keyboard.up('Control')
        } else await page.keyboard.press(key === 'Space' ? ' ' : key)
      }
    },
    async screenshot(path, selector) {
      if (!selector) return writePng(path, await page.screenshot({ fullPage: true }))
      // The element's box in the document, shot from the top: an element screenshot of something taller
      // than the viewport comes out shifted by the scroll it takes to reach it.
      const box = await page.evaluate((sel: string) => {
        scrollTo(0, 0)
        const rect = document.querySelector(sel)?.getBoundingClientRect()
        return rect && { x: rect.left, y: rect.top, width: rect.width, height: rect.height }
      }, selector)
      if (!box) throw new Error(`firefox: no ${selector} to screenshot`)
      writePng(path, await page.screenshot({ clip: box, captureBeyondViewport: true }))
    },
    async close() {
      await browser.close()
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 })
    },
  }
}

// ----------------------------------------------------------------------------------------------- WebKit

/** MiniBrowser draws to X; a private Xvfb display (the first free one, `-displayfd`) per launch. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  if (!existsSync(XVFB_PATH)) throw new Error(`e2e: ${XVFB_PATH} is missing; apt-get install xvfb`)
  // A tall screen: WebDriver screenshots are of the viewport, so a full page needs a window that tall.
  const child = spawn(XVFB_PATH, ['-displayfd', '3', '-screen', '0', '1400x4000x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  })
  const pipe = child.stdio[3]
  if (!pipe) throw new Error('xvfb: no display pipe')
  let text = ''
  const display = await new Promise<string>((resolve, reject) => {
    pipe.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes('\n')) resolve(`:${text.trim()}`)
    })
    child.once('exit', (code) => reject(new Error(`xvfb exited with ${code} before naming its display`)))
  })
  return { display, process: child }
}

/** A port free on loopback now (WebKitWebDriver takes no port 0): the OS's pick, released for the driver. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

/** WebKitWebDriver on a free loopback port, once it answers `/status`. */
async function startWebKitDriver(display: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort()
  const child = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, '--host=local'], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: display },
  })
  const url = `http://127.0.0.1:${port}`
  try {
    await poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}`)
        return (await fetch(`${url}/status`)).ok
      },
      'WebKitWebDriver to answer',
      20_000,
    )
  } catch (error) {
    child.kill()
    throw error
  }
  return { url, process: child }
}

/** WebKitGTK's MiniBrowser under WebKitWebDriver, on a private X display, with a fresh profile. */
async function launchWebKit(): Promise<EngineBrowser> {
  for (const path of [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH]) {
    if (!existsSync(path)) throw new Error(`e2e: ${path} is missing; apt-get install webkit2gtk-driver`)
  }
  const xvfb = await startXvfb()
  const driverProcess = await startWebKitDriver(xvfb.display)
  const stop = async () => {
    for (const child of [driverProcess.process, xvfb.process]) {
      if (child.exitCode !== null || child.signalCode !== null) continue
      child.kill()
      await once(child, 'exit')
    }
  }
  let driver: WebDriver
  try {
    const capabilities = new Capabilities()
    capabilities.setBrowserName('MiniBrowser')
    // `--automation` gives MiniBrowser an ephemeral (fresh) profile each session.
    capabilities.set('webkitgtk:browserOptions', { binary: MINIBROWSER_PATH, args: ['--automation'] })
    driver = await new Builder().withCapabilities(capabilities).usingServer(driverProcess.url).build()
  } catch (error) {
    await stop()
    throw error
  }
  const version = (await driver.getCapabilities()).getBrowserVersion() ?? 'unknown'
  let frames: string[] = []
  // Unknown until the first open sizes the window.
  let viewport: Viewport = { width: 0, height: 0 }

  /** The window size that gives `viewport`: MiniBrowser's toolbar takes some of the height. */
  /** The viewport, once the window manager has applied a resize (X applies it after the command returns). */
  const settledViewport = (width: number, height?: number) =>
    poll(
      async () => {
        const [w, h] = (await driver.executeScript('return [innerWidth, innerHeight]')) as [number, number]
        return w === width && (height === undefined || h === height) ? [w, h] : null
      },
      `a ${width} px wide viewport (MiniBrowser's minimum is about 447)`,
      10_000,
    )
  const sizeWindow = async (wanted: Viewport) => {
    const window = driver.manage().window()
    const outer = await window.getRect()
    const [, innerHeight] = (await driver.executeScript('return [innerWidth, innerHeight]')) as [
      number,
      number,
    ]
    // The toolbar's height on top of the viewport's, as it is now.
    const chrome = Math.max(0, outer.height - innerHeight)
    await window.setRect({ x: 0, y: 0, width: wanted.width, height: wanted.height + chrome })
    await settledViewport(wanted.width, wanted.height)
  }
  const enter = async (selectors: string[]) => {
    await driver.switchTo().defaultContent()
    for (const selector of selectors) {
      const element = await poll(
        () => driver.executeScript(`return document.querySelector(${JSON.stringify(selector)})`),
        selector,
        30_000,
      )
      await driver.switchTo().frame(element as WebElement)
    }
    frames = selectors
  }
  const home = await driver.getWindowHandle()
  /** Closes every window but the first and goes back to it (also after a test that failed half-way). */
  const backHome = async () => {
    for (const handle of await driver.getAllWindowHandles()) {
      if (handle === home) continue
      await driver.switchTo().window(handle)
      await driver.close()
    }
    await driver.switchTo().window(home)
  }
  const evaluate = <T>(fn: PageFunction<T>, ...args: unknown[]): Promise<T> =>
    // WebDriver's Execute Script awaits a returned promise.
    driver.executeScript(`return (${fn.toString()}).apply(null, arguments)`, ...args) as Promise<T>

  return {
    name: 'webkit',
    version,
    async open(url, wanted) {
      await backHome()
      await driver.switchTo().defaultContent()
      frames = []
      if (wanted.width !== viewport.width || wanted.height !== viewport.height) await sizeWindow(wanted)
      viewport = wanted
      // Navigate returns after the load event (page load strategy "normal").
      await driver.get(url)
    },
    enterFrames: enter,
    evaluate,
    waitFor: (fn, args, what, timeoutMs = 30_000) =>
      poll(
        () =>
          evaluate(fn, ...args).catch(async (error: unknown) => {
            // The frame was replaced (the playground re-creates its preview): find it again.
            await enter(frames)
            throw error
          }),
        what,
        timeoutMs,
      ),
    async clickOpeningWindow(locate, ...args) {
      const element = (await evaluate(locate, ...args)) as unknown as WebElement | null
      if (!element) throw new Error('webkit: nothing to click')
      const before = new Set(await driver.getAllWindowHandles())
      await element.click()
      try {
        const opened = await poll(
          async () => (await driver.getAllWindowHandles()).find((handle) => !before.has(handle)),
          'a new window',
          15_000,
        )
        await driver.switchTo().window(opened as string)
        // The URL is committed once the landing page's answer has arrived, so the tracker has counted
        // it. Not `document.readyState`: a script in a window that is still loading can fail with a bare
        // WebDriverError under load.
        return await poll(
          async () => {
            const now = await driver.getCurrentUrl()
            return now !== 'about:blank' ? now : ''
          },
          'the opened window to load',
          30_000,
        )
      } finally {
        await backHome()
        await enter(frames)
      }
    },
    async press(keys) {
      const named = { Tab: Key.TAB, Enter: Key.ENTER, Space: Key.SPACE, ArrowDown: Key.ARROW_DOWN }
      for (const key of keys) {
        const actions = driver.actions()
        if (typeof key !== 'string') actions.sendKeys(key.text)
        else if (key === 'selectAll') actions.keyDown(Key.CONTROL).sendKeys('a').keyUp(Key.CONTROL)
        else actions.sendKeys(named[key])
        await actions.perform()
      }
    },
    async screenshot(path, selector) {
      await driver.switchTo().defaultContent()
      // WebDriver shoots the viewport: the window is made as tall as the page (up to the X screen's
      // height) and put back after; the width, so the layout, is kept.
      const height = (await driver.executeScript('return document.documentElement.scrollHeight')) as number
      await sizeWindow({ width: viewport.width, height: Math.min(height, 3800) })
      // Two frames, so the newly exposed part of the page is painted before the shot.
      await driver.executeScript(
        'return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))',
      )
      const png = selector
        ? await driver.findElement(By.css(selector)).takeScreenshot()
        : await driver.takeScreenshot()
      writePng(path, png)
      await sizeWindow(viewport)
      await enter(frames)
    },
    async close() {
      try {
        await driver.quit()
      } finally {
        await stop()
      }
    },
  }
}

export function launchEngine(name: EngineName): Promise<EngineBrowser> {
  return name === 'firefox' ? launchFirefox() : launchWebKit()
}
