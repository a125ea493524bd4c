/**
 * @module Driving the playground from a test: its preview frame, its controls (by arg path), the event log,
 * the accessibility report, the clock, a story's play verdict and the loan application in the frame, each
 * waited for on a condition, never on time.
 */
import type { Frame, Page } from 'playwright-core'

/** The preview frame, once its document has loaded. */
export async function previewFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe.pg-frame')
  const frame = await handle.contentFrame()
  if (!frame) throw new Error('playground: the preview iframe has no frame')
  await frame.waitForSelector('#widget', { state: 'attached' })
  return frame
}

/** The id a control has for an arg path (ArgControl's `controlId`). */
const controlSelector = (path: string) => `#ctl-${path.replace(/\./g, '-')}`

/** Opens the Controls panel and the group holding `path`, so its control can be used. */
export async function revealControl(page: Page, path: string): Promise<string> {
  await page.click('#pg-tab-controls')
  const selector = controlSelector(path)
  await page.evaluate((sel) => {
    const details = document.querySelector(sel)?.closest('details')
    if (details) details.open = true
  }, selector)
  return selector
}

/** Types into a text control and applies it (Enter), as a user would. */
export async function setText(page: Page, path: string, value: string): Promise<void> {
  const selector = await revealControl(page, path)
  await page.fill(selector, value)
  await page.press(selector, 'Enter')
}

export async function setSelect(page: Page, path: string, value: string): Promise<void> {
  await page.selectOption(await revealControl(page, path), value)
}

/** The log's entries, newest first, as `kind text`. */
export function logLines(page: Page): Promise<string[]> {
  return page.$$eval('.pg-log-list li', (items) =>
    items.map((li) => `${li.getAttribute('data-kind')} ${li.textContent?.replace(/^\S+ s \S+ /, '') ?? ''}`),
  )
}

/** The overrides kept in the address bar. */
export function urlArgs(page: Page): Record<string, unknown> {
  const text = new URL(page.url()).searchParams.get('args')
  return text ? (JSON.parse(text) as Record<string, unknown>) : {}
}

export interface A11yStatus {
  state: string
  violations: number
  seen: string[]
}

/** Waits for the accessibility report of the widget in `state` (axe runs after every change). */
export async function a11yIn(page: Page, states: string[], timeout = 30_000): Promise<A11yStatus> {
  await page.click('#pg-tab-a11y')
  const status = await page.waitForFunction(
    (wanted) => {
      const p = document.querySelector<HTMLElement>('.pg-a11y [data-state]')
      if (!p || !wanted.includes(p.dataset.state ?? '')) return null
      return {
        state: p.dataset.state ?? '',
        violations: Number(p.dataset.violations),
        seen: (p.dataset.seen ?? '').split(' ').filter(Boolean),
      }
    },
    states,
    { timeout, polling: 100 },
  )
  return (await status.jsonValue()) as A11yStatus
}

/** The frame's clock: ms since the search was created (`null` before), and whether it is paused. */
export function readClock(page: Page): Promise<{ elapsed: number | null; paused: boolean }> {
  return page.$eval('.pg-clock', (output) => {
    const el = output as HTMLElement
    return {
      elapsed: el.dataset.elapsed === '' ? null : Number(el.dataset.elapsed),
      paused: el.dataset.paused === 'true',
    }
  })
}

/** The story's play script as the page reports it (`data-play`: none, running, passed, failed) once it ends. */
export async function playVerdict(page: Page, timeout = 60_000): Promise<{ status: string; text: string }> {
  await page.waitForSelector('.pg-play:is([data-play="passed"], [data-play="failed"])', { timeout })
  return page.$eval('.pg-play', (p) => ({
    status: (p as HTMLElement).dataset.play ?? '',
    text: p.textContent ?? '',
  }))
}

export interface ApplicationView {
  heading: string
  /** The heading of the step shown. */
  step: string
  /** The labels of the fields marked invalid. */
  invalid: string[]
  /** The announced summary above the steps. */
  alert: string
}

/** The widget's loan application in the frame, or null when it does not show one. */
export function readApplication(frame: Frame, host = '#widget'): Promise<ApplicationView | null> {
  return frame.evaluate((selector) => {
    const root = document.querySelector(selector)?.shadowRoot
    const form = root?.querySelector('.ow-loan')
    if (!root || !form) return null
    const text = (q: string) => form.querySelector(q)?.textContent?.trim() ?? ''
    return {
      heading: text('.ow-heading'),
      step: text('[data-ow-step-heading]'),
      invalid: [...form.querySelectorAll('[aria-invalid="true"]')].map(
        (control) => root.querySelector(`label[for="${control.id}"]`)?.textContent?.trim() ?? control.id,
      ),
      alert: text('[role="alert"]'),
    }
  }, host)
}
