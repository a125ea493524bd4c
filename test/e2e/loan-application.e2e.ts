/**
 * @module Issue 40, the visitor's side in real Chromium at 360, 768 and 1280 px: a publisher's loan page on
 * its own origin (the printed reservation, a `data-source="second-look"` mount point, the loader) and the
 * real BFF with its marketplace and simulated partners on another. The widget's own application is filled
 * with the keyboard only; on its consent step, Submit without the FCRA box sends nothing and says why; with
 * it, one POST and the partners' offers. axe finds nothing at any step, nothing shifts (CLS 0.00), and the
 * consent record the BFF kept for the lead says what the page showed, where and to whom.
 */
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mountPointHtml } from '../../src/embed/publisher-snippet.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { applicant, fillStep, playwrightKeyboard } from './support/loan-keyboard.ts'
import { articlePage, type PublisherSetup, startPublisherSetup } from './support/publisher-origin.ts'
import { observeLayoutShifts, readCls, waitForStatus } from './support/widget-page.ts'

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const REPORTS_TOKEN = 'e2e-Reports-Token-0123456789-abcdefghij'
const HOST = '[data-offer-widget]'
const LEAD_ROUTE = '/api/second-look'

let setup: PublisherSetup
let browser: Browser

beforeAll(async () => {
  setup = await startPublisherSetup({ REPORTS_TOKEN })
  const mount = mountPointHtml(setup.bff.url, ' data-source="second-look"')
  setup.page('/loans', articlePage(`${setup.pasteBlock.split('\n')[1]}\n${mount}\n${setup.loader}`))
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await setup?.close()
})

/** The widget's text at `selector`, through its shadow root. */
function shadowText(page: Page, selector: string): Promise<string> {
  return page.evaluate(
    ([host, sel]) =>
      [...(document.querySelector(host as string)?.shadowRoot?.querySelectorAll(sel as string) ?? [])]
        .map((e) => e.textContent?.trim() ?? '')
        .join('\n'),
    [HOST, selector],
  )
}

/** axe on the widget (the test's article page is not ours to judge). */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH })
  return page.evaluate(async (host) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (ctx: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>
        }
      }
    ).axe
    const result = await axe.run(document.querySelector(host))
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)
  }, HOST)
}

const stepLine = (page: Page) => shadowText(page, '.ow-loan-step-of')

describe.each([
  [360, 740],
  [768, 1024],
  [1280, 900],
])('the loan application at %i px', (width, height) => {
  it('is filled with the keyboard only; no FCRA box sends nothing; with it one POST, offers and a consent record that matches the page', async () => {
    const page = await browser.context.newPage()
    await page.setViewportSize({ width, height })
    await observeLayoutShifts(page, HOST)
    const errors = collectErrors(page)
    const posts: string[] = []
    let created: { rateTable: { leadUuid: string } } | undefined
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === LEAD_ROUTE)
        posts.push(request.url())
    })
    page.on('response', async (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === LEAD_ROUTE) {
        created = await response.json()
      }
    })
    await page.goto(`${setup.publisherUrl}/loans`)
    await page.locator(`${HOST} .ow-loan`).waitFor()
    const keys = playwrightKeyboard(page)
    const values = applicant(width)

    for (let step = 1; step <= 4; step++) {
      expect(await stepLine(page)).toContain(`${step} of 5`)
      await fillStep(keys, values, { fcra: false })
      expect(await axeViolations(page), `step ${step}`).toEqual([])
      await screenshot(page, `loan-application-${width}-step-${step}`)
      await keys.press(['Enter'])
      await expect.poll(() => stepLine(page)).toContain(`${step + 1} of 5`)
    }

    // The consent step: its texts in full, the boxes unticked. Submit without the FCRA box.
    const consentText = await shadowText(page, '.ow-loan-consent-text')
    await fillStep(keys, values, { fcra: false })
    await keys.press(['Enter'])
    await expect
      .poll(() => shadowText(page, '.ow-field-error, .ow-form-error'))
      .toMatch(/FCRA|credit|consent/i)
    expect(posts).toEqual([])
    expect(await axeViolations(page), 'the FCRA error').toEqual([])
    await screenshot(page, `loan-application-${width}-no-consent`)

    // Focus is on the box that stopped it: tick it, then on to Submit.
    const focused = await keys.focused()
    expect(focused?.type).toBe('checkbox')
    await keys.press(['Space'])
    await fillStep(keys, values, { fcra: true })
    // Nothing moved by itself through the steps: every change followed a key press.
    const steps = await readCls(page)
    expect(steps.cls.toFixed(2), JSON.stringify(steps.shifts)).toBe('0.00')
    await keys.press(['Enter'])

    await waitForStatus(page, ['complete'], HOST, 45_000)
    expect(posts).toHaveLength(1)
    expect(
      Number(
        await page.evaluate(
          (h) => document.querySelector(h)?.shadowRoot?.querySelectorAll('.ow-card').length,
          HOST,
        ),
      ),
    ).toBeGreaterThan(0)
    expect(await axeViolations(page), 'the offers').toEqual([])
    await page.locator(HOST).scrollIntoViewIfNeeded()
    await screenshot(page, `loan-application-${width}-offers`)

    // The proof: what the page showed, where, when and to whom.
    const leadId = created?.rateTable.leadUuid
    expect(leadId).toBeTruthy()
    const answer = await fetch(`${setup.bff.url}/api/reports/consent/${leadId}`, {
      headers: { authorization: `Bearer ${REPORTS_TOKEN}` },
    })
    expect(answer.status).toBe(200)
    const record = await answer.json()
    const userAgent = await page.evaluate(() => navigator.userAgent)
    expect(record).toMatchObject({
      leadId,
      pageUrl: `${setup.publisherUrl}/loans`,
      ipAddress: '127.0.0.1',
      userAgent,
      fcra: { checked: true },
    })
    expect(consentText).toContain(record.fcra.text)
    // The TCPA box shown and left unticked: recorded as declined (its text travels only with consent).
    expect(record.tcpa).toMatchObject({ checked: false })
    // Never the applicant's identity: no SSN, date of birth, name or contact details.
    for (const field of ['ssn', 'dateOfBirth', 'email', 'primaryPhone', 'lastName'] as const) {
      expect(JSON.stringify(record)).not.toContain(values[field])
    }
    expect(errors).toEqual([])
    await page.close()
  })
})
