/**
 * @module Issue 40 in Firefox ESR and WebKit at 360 px (an iframe that wide, as the cross-engine suite
 * frames its phone width): a publisher's loan page on its own origin and the real BFF on another; the
 * widget's loan application filled with the keyboard only; Submit without the FCRA box sends nothing and
 * says why; with it, one POST (counted at the BFF) and the partners' offers; the consent record matches.
 */
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mountPointHtml, reservationCss } from '../../../src/embed/publisher-snippet.ts'
import { publisherEmbed } from '../../../src/publisher/snippet.ts'
import { loadConfig } from '../../../src/server/config.ts'
import { withEmbedAssets } from '../../../src/server/embed-assets.ts'
import { type RunningServer, startServer } from '../../../src/server/start-server.ts'
import { nodeStaticFiles } from '../../../src/server/static-files.ts'
import { ERRORS_GLOBAL, NARROW_FRAME, narrowUrl, type Publisher, startPublisher } from './engine-pages.ts'
import { type EngineBrowser, type EngineName, launchEngine } from './engines.ts'
import { applicant, fillStep, focusedControl, type KeyboardPage } from './loan-keyboard.ts'
import { articlePage } from './publisher-origin.ts'
import { REPO_ROOT, requireBuild } from './server.ts'

const REPORTS_TOKEN = 'e2e-Reports-Token-0123456789-abcdefghij'
const SHOTS_DIR = resolve(process.env.ENGINE_SHOTS_DIR ?? 'test-results/e2e-screenshots/engines')
const WIDTH = 360

/** Runs in the page: the widget's text at `selector`, through its shadow root. */
function widgetText(selector: string): string {
  return [...(document.querySelector('[data-offer-widget]')?.shadowRoot?.querySelectorAll(selector) ?? [])]
    .map((e) => e.textContent?.trim() ?? '')
    .join('\n')
}

/** Leads the BFF answered (`POST /api/second-look`), from its own metrics. */
async function leadPosts(bff: RunningServer): Promise<number> {
  const text = await (await fetch(`${bff.url}/metrics`)).text()
  return text
    .split('\n')
    .filter((line) => /^bff_http_requests_total\{method="POST",route="\/api\/second-look"/.test(line))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0)
}

export function loanApplicationSuite(name: EngineName): void {
  let bff: RunningServer
  let publisher: Publisher
  let browser: EngineBrowser

  beforeAll(async () => {
    const manifest = requireBuild()
    publisher = await startPublisher()
    bff = await startServer(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_POINTS: '100000',
        ALLOWED_ORIGINS: publisher.url,
        REPORTS_TOKEN,
      }),
      {
        staticFiles: withEmbedAssets(nodeStaticFiles(REPO_ROOT), { root: REPO_ROOT }),
        secondLook: { inMemoryLedger: true },
      },
    )
    const embed = publisherEmbed(manifest, bff.url)
    publisher.html = articlePage(
      `<style>${reservationCss()}</style>\n${mountPointHtml(bff.url, ' data-source="second-look"')}\n${embed.snippet}`,
    )
    browser = await launchEngine(name)
  })
  afterAll(async () => {
    await browser?.close()
    await bff?.close()
    await publisher?.close()
  })

  describe(`the loan application in ${name} at ${WIDTH} px`, () => {
    it('is filled with the keyboard only; no FCRA box sends nothing; with it one POST, offers and the consent record', async () => {
      await browser.open(narrowUrl(publisher.url, '/', WIDTH), { width: 1280, height: 900 })
      await browser.enterFrames([NARROW_FRAME])
      await browser.waitFor(widgetText, ['.ow-loan-step-of'], 'the loan application')
      const page: KeyboardPage = {
        press: (keys) => browser.press(keys),
        focused: () => browser.evaluate(focusedControl),
      }
      const values = applicant(name === 'firefox' ? 11 : 12)
      const stepOf = () => browser.evaluate(widgetText, '.ow-loan-step-of')
      for (let step = 1; step <= 4; step++) {
        expect(await stepOf()).toContain(`${step} of 5`)
        await fillStep(page, values, { fcra: false })
        await browser.screenshot(`${SHOTS_DIR}/${name}-loan-application-step-${step}.png`, NARROW_FRAME)
        await page.press(['Enter'])
        await browser.waitFor(
          (s: string, want: string) =>
            [...(document.querySelector('[data-offer-widget]')?.shadowRoot?.querySelectorAll(s) ?? [])].some(
              (e) => e.textContent?.includes(want),
            ),
          ['.ow-loan-step-of', `${step + 1} of 5`],
          `step ${step + 1}`,
        )
      }

      const before = await leadPosts(bff)
      const shown = await browser.evaluate(widgetText, '.ow-loan-consent-text')
      await fillStep(page, values, { fcra: false })
      await page.press(['Enter'])
      await browser.waitFor(widgetText, ['.ow-field-error'], 'the FCRA error')
      expect(await browser.evaluate(widgetText, '.ow-field-error')).toMatch(/credit/i)
      await browser.screenshot(`${SHOTS_DIR}/${name}-loan-application-no-consent.png`, NARROW_FRAME)
      expect(await leadPosts(bff)).toBe(before)

      expect((await page.focused())?.type).toBe('checkbox')
      await page.press(['Space'])
      await fillStep(page, values, { fcra: true })
      await page.press(['Enter'])
      await browser.waitFor(
        // A boolean: an element does not cross puppeteer's evaluate.
        () =>
          document
            .querySelector('[data-offer-widget]')
            ?.shadowRoot?.querySelector('[data-ow-status="complete"]') != null,
        [],
        'the search to complete',
        45_000,
      )
      expect(await leadPosts(bff)).toBe(before + 1)
      expect(await browser.evaluate(widgetText, '.ow-card .ow-carrier')).not.toBe('')
      await browser.screenshot(`${SHOTS_DIR}/${name}-loan-application-offers.png`, NARROW_FRAME)
      expect(await browser.evaluate((key: string) => (window as never)[key], ERRORS_GLOBAL)).toEqual([])

      // The consent record of the lead the page sent (this BFF's only lead, as a partner's report lists it).
      const auth = { headers: { authorization: `Bearer ${REPORTS_TOKEN}` } }
      const { partners } = await (await fetch(`${bff.url}/api/reports/partners`, auth)).json()
      const report = await (await fetch(`${bff.url}/api/reports/partners/${partners[0].id}`, auth)).json()
      const leadId = report.leads[0]?.leadId
      const record = await (await fetch(`${bff.url}/api/reports/consent/${leadId}`, auth)).json()
      const userAgent = await browser.evaluate(() => navigator.userAgent)
      expect(record).toMatchObject({
        leadId,
        pageUrl: `${publisher.url}/`,
        ipAddress: '127.0.0.1',
        userAgent,
        fcra: { checked: true },
        tcpa: { checked: false },
      })
      expect(shown).toContain(record.fcra.text)
    })
  })
}
