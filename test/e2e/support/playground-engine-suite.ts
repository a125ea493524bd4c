/**
 * @module Story play scripts in Firefox ESR and WebKit: a few representative stories of the playground, each
 * opened in msw mode with the preview at 360 px (the frame's CSS width: the widget sees a phone), its play
 * script run by the preview frame as in Chromium, and its verdict read from the page. Offers arriving (the
 * frame's clock taken to the end of the window), persistent 5xx (the error a visitor meets), Spanish (a
 * click that opens the form) and the loan application's missing consent (typing, a box left unchecked).
 */
import { resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningServer } from '../../../src/server/start-server.ts'
import { type EngineBrowser, type EngineName, launchEngine } from './engines.ts'
import { requireBuild, startTestServer } from './server.ts'

const SHOTS_DIR = resolve(process.env.ENGINE_SHOTS_DIR ?? 'test-results/e2e-screenshots/engines')
const WIDTH = 360
/** The stories played, and whether their play waits on the search's window (then CI ends it at once). */
const PLAYED = [
  { id: 'offers-arriving', windowed: true },
  { id: 'persistent-5xx', windowed: true },
  { id: 'spanish', windowed: true },
  { id: 'loan-missing-consent', windowed: false },
] as const

export function playgroundPlaySuite(name: EngineName): void {
  let server: RunningServer
  let browser: EngineBrowser

  beforeAll(async () => {
    requireBuild()
    server = await startTestServer()
  }, 90_000)

  // A browser per story: WebKitGTK's window was once lost between two stories (NoSuchWindowError), which
  // failed the story after it and its retry; a fresh session keeps one engine fault to one story.
  beforeEach(async () => {
    browser = await launchEngine(name)
  }, 90_000)

  afterEach(async () => {
    await browser?.close()
  })

  afterAll(async () => {
    await server?.close()
  })

  describe(`${name}: story play scripts at ${WIDTH} px`, () => {
    for (const { id, windowed } of PLAYED) {
      it(`${id}: its play passes`, async () => {
        await browser.open(`${server.url}/?story=${id}&vp=${WIDTH}`, { width: 1280, height: 900 })
        await browser.enterFrames(['iframe.pg-frame'])
        expect(await browser.evaluate(() => innerWidth), 'the preview is a phone').toBe(WIDTH)
        await browser.enterFrames([])
        if (windowed) {
          // The page's own time control, as a person uses it: the play waits on the frame's clock.
          await browser.waitFor(
            () => {
              const end = [...document.querySelectorAll<HTMLButtonElement>('.pg-time button')].find(
                (b) => b.textContent === 'End of 15 s window',
              )
              if (!end || end.disabled) return false
              end.click()
              return true
            },
            [],
            'the search to start (End of 15 s window enabled)',
            30_000,
          )
        }
        const verdict = await browser.waitFor(
          () => {
            const p = document.querySelector<HTMLElement>('.pg-play')
            const status = p?.dataset.play
            return status === 'passed' || status === 'failed' ? { status, text: p?.textContent ?? '' } : null
          },
          [],
          `the play verdict of ${id}`,
          60_000,
        )
        await browser.screenshot(`${SHOTS_DIR}/${name}-play-${id}-${WIDTH}.png`)
        expect(verdict, `${name}: ${id}`).toEqual({
          status: 'passed',
          text: expect.stringMatching(/^Play script: passed/),
        })
      })
    }
  })
}
