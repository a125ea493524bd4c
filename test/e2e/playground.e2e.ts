/**
 * @module The playground (`/`, the built dist/site) in Chromium against the real BFF and sandbox: every
 * story in both modes settles (or its play script passes, in msw mode) with no console error and no axe
 * violation in any state it passes through, the loan application's stories each in the state they promise;
 * every control drives the widget in the preview frame and stays in the link; the copied script-tag code,
 * pasted into a blank page on another origin, renders the same widget; viewports are real widths; the
 * accessibility panel names the node of a violation; the time control moves the frame's clock; the event
 * log filters, clears, copies and is reachable by keyboard.
 */
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOAN_STORIES } from '../../src/playground/loan-stories.ts'
import { STORIES, storyPlay } from '../../src/playground/stories.ts'
import type { RunningServer } from '../../src/server/start-server.ts'
import { DEFAULT_LOAN_LABELS } from '../../src/widget/loan-application/loan-labels.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import {
  a11yIn,
  logLines,
  playVerdict,
  previewFrame,
  readApplication,
  readClock,
  revealControl,
  setSelect,
  setText,
  urlArgs,
} from './support/playground-page.ts'
import { requireBuild, startTestServer } from './support/server.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const HOST = '#widget'
/** Where a story comes to rest: a finished search, or the form waiting for the visitor. */
const SETTLED = ['complete', 'error', 'form']

let server: RunningServer
let browser: Browser
/** A second origin serving whatever page a test puts in `blankPage`: "a blank page elsewhere". */
let elsewhere: Server
let elsewhereUrl: string
let blankPage = '<!doctype html><title>blank</title>'

beforeAll(async () => {
  requireBuild()
  elsewhere = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(blankPage)
  })
  await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.1', done))
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`
  server = await startTestServer({}, { ALLOWED_ORIGINS: elsewhereUrl })
  browser = await launchBrowser()
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await new Promise((done) => elsewhere?.close(done))
})

/** Network answers a story provokes on purpose (429, 503) are logged by Chrome; script errors are not. */
const scriptErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Failed to load resource'))

async function open(query: string): Promise<{ page: Page; errors: string[] }> {
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

/** Polls a condition in the page for up to 20 s (a story's partners answer over seconds). */
const eventually = <T>(read: () => T | Promise<T>, message?: string) =>
  expect.poll(read, { timeout: 20_000, interval: 100, message })

/** The number of searches created in this run, from the log. */
const created = async (page: Page) =>
  (await logLines(page)).filter((l) => l.includes('onSearchCreated')).length

type StoryRun = {
  view: Awaited<ReturnType<typeof readWidget>>
  application: Awaited<ReturnType<typeof readApplication>>
  play: { status: string; text: string } | undefined
  log: string[]
}

/** The loan application's stories: each in the state its summary promises, its play passed (msw). */
function expectLoanStories(get: (id: string, mode: string) => StoryRun | undefined): void {
  const L = DEFAULT_LOAN_LABELS
  /** The create of the lead, as the log has it: `request /api/second-look → 400`. */
  const leads = (run: StoryRun | undefined) => run?.log.filter((l) => /\/api\/second-look → \d+$/.test(l))
  for (const mode of ['msw', 'bff']) {
    for (const id of ['loan-empty', 'loan-prefilled']) {
      // In msw mode the pre-filled story's play walks through the steps its lead answers, to the last one.
      const step = id === 'loan-prefilled' && mode === 'msw' ? L.loanStepConsent : L.loanStepLoan
      expect(get(id, mode)?.application, `${id} (${mode})`).toMatchObject({ heading: L.loanHeading, step })
    }
  }
  for (const id of ['loan-errors', 'loan-missing-consent', 'loan-submitting', 'loan-duplicate']) {
    expect(get(id, 'msw')?.play, id).toEqual({
      status: 'passed',
      text: expect.stringMatching(/^Play script: passed/),
    })
    // Against the real BFF the play does not run: the application waits for the visitor.
    expect(get(id, 'bff')?.play, id).toBeUndefined()
    expect(get(id, 'bff')?.application?.step, id).toBe(L.loanStepLoan)
  }
  const errors = get('loan-errors', 'msw')
  expect(errors?.application).toMatchObject({ step: L.loanStepAddress, invalid: [L.loanZipcode] })
  expect(leads(errors)).toEqual(['request /api/second-look → 400'])
  const missing = get('loan-missing-consent', 'msw')
  expect(missing?.application?.step).toBe(L.loanStepConsent)
  expect(missing?.application?.invalid).toHaveLength(1)
  expect(leads(missing)).toEqual([])
  expect(get('loan-submitting', 'msw')?.view?.status).toBe('creating')
  const duplicate = get('loan-duplicate', 'msw')
  expect(duplicate?.application?.alert).toBe(L.loanDuplicate)
  expect(leads(duplicate)).toEqual(['request /api/second-look → 409'])
}

describe('playground', () => {
  it('renders every story in both modes without console errors, and axe finds nothing in any state', async () => {
    const runs = STORIES.flatMap((story) => (['msw', 'bff'] as const).map((mode) => ({ story, mode })))
    // A few pages at a time: thirty Chromium pages at once starve a 2-core machine.
    const results = await inBatches(runs, 3, async ({ story, mode }) => {
      const name = `${story.id} (${mode})`
      const { page, errors } = await open(`?story=${story.id}&mode=${mode}&panel=a11y`)
      const frame = await previewFrame(page)
      // A story that opens on the form (or the loan application) has no search to fast-forward, nor has one
      // whose search the BFF refuses outright (its window never opens).
      const opensOnForm =
        story.args.form === 'always' || story.id === 'form-empty' || LOAN_STORIES.includes(story)
      const refused = story.scenario === 'declaredBot'
      if (mode === 'msw' && !opensOnForm && !refused) {
        // The frame's clock: no need to sit through the 15 s window in real time.
        await page
          .waitForSelector('.pg-time button:has-text("End of 15 s window"):not([disabled])', {
            timeout: 60_000,
          })
          .catch(async (error: Error) => {
            const seen = JSON.stringify({ log: await logLines(page), widget: await readWidget(frame, HOST) })
            throw new Error(`${name}: no search started: ${error.message}; ${seen}`)
          })
        await page.click('text=End of 15 s window')
      }
      // A play script ends where its story's state is: that state is what the story is read in. Its waits
      // follow the frame's clock, which the click above took to the end of the window.
      const play = storyPlay(story, mode) ? await playVerdict(page) : undefined
      if (!play) {
        await waitForStatus(frame, SETTLED, HOST, 40_000).catch((error: Error) => {
          throw new Error(`${name} did not settle: ${error.message}`)
        })
      }
      const view = await readWidget(frame, HOST)
      const application = await readApplication(frame, HOST)
      const a11y = await a11yIn(page, [view?.status ?? ''])
      const log = await logLines(page)
      await screenshot(page, `playground-${story.id}-${mode}`)
      await page.close()
      return { name, id: story.id, mode, view, application, play, a11y, log, errors: scriptErrors(errors) }
    })
    for (const result of results) {
      // Every story's play in msw mode passes: on failure the verdict names the story, the step and why.
      if (result.mode === 'msw') {
        expect(result.play, `${result.name}: its play script`).toEqual({
          status: 'passed',
          text: expect.stringMatching(/^Play script: passed/),
        })
      }
      expect(result.errors, result.name).toEqual([])
      expect(result.a11y.violations, result.name).toBe(0)
      expect(result.a11y.seen, result.name).toEqual([])
      // The sandbox allowance: flipping through every story never meets the per-IP limit (on the POSTs).
      const refused = result.log.filter((line) => /\/api\/(offer-searches|second-look) → 429$/.test(line))
      expect(refused, result.name).toEqual([])
    }
    const get = (id: string, mode: string) => results.find((r) => r.id === id && r.mode === mode)
    expect(get('offers-arriving', 'msw')?.view).toMatchObject({
      status: 'complete',
      carriers: expect.any(Array),
    })
    // Five offers arrive; the first three (initialOffers) are cards, the rest behind "Show 2 more".
    expect(get('offers-arriving', 'msw')?.view?.carriers).toHaveLength(3)
    expect(get('no-offers', 'msw')?.view).toMatchObject({ status: 'complete', empty: true })
    // Jumping to the end lets every poll's answer land as real time would: the storm passes, offers show.
    expect(get('rate-limit-storm', 'msw')?.view).toMatchObject({
      status: 'complete',
      carriers: expect.any(Array),
    })
    expect(get('rate-limit-storm', 'msw')?.view?.carriers.length).toBeGreaterThan(0)
    expect(get('no-offers', 'bff')?.view).toMatchObject({ status: 'complete', empty: true })
    expect(get('form-empty', 'msw')?.view?.status).toBe('form')
    expect(get('form-empty', 'bff')?.view?.status).toBe('form')
    expect(get('non-active', 'msw')?.view?.carriers).toHaveLength(1)
    expect(get('non-active', 'bff')?.view?.carriers).toHaveLength(1)
    expect(get('offers-arriving', 'msw')?.log).toContainEqual(expect.stringMatching(/^pixel/))
    expect(get('offers-arriving', 'msw')?.log).toContainEqual(expect.stringContaining('onComplete 5 offers'))
    // Second look in msw mode: loan offers from the lender handlers, no impression pixels, like the BFF.
    for (const mode of ['msw', 'bff']) {
      const secondLook = get('second-look', mode)
      expect(secondLook?.view?.status, mode).toBe('complete')
      expect(secondLook?.view?.carriers.length, mode).toBeGreaterThan(0)
      expect(secondLook?.log, mode).not.toContainEqual(expect.stringMatching(/^pixel/))
      expect(secondLook?.log, mode).toContainEqual(expect.stringContaining('/api/second-look'))
    }
    expectLoanStories(get)
  }, 420_000)

  it('drives every control: each lands in the link, and the widget in the frame follows', async () => {
    const { page, errors } = await open('?story=offers-arriving')
    const frame = await previewFrame(page)
    await waitForStatus(frame, ['searching', 'complete'], HOST)

    // Every control in the panel, one by one: set, seen in the address bar, reset.
    await page.click('#pg-tab-controls')
    await page.evaluate(() => {
      for (const details of document.querySelectorAll('.pg-controls details'))
        (details as HTMLDetailsElement).open = true
    })
    // The colour pickers beside the colour variables' text fields are checked after the loop.
    const controls = await page.$$eval(
      '.pg-control :is(input:not([type="color"]), select, textarea)',
      (inputs) =>
        inputs.map((input) => ({
          id: input.id,
          tag: input.localName,
          type: (input as HTMLInputElement).type,
        })),
    )
    expect(controls.length).toBeGreaterThan(60)
    const valueFor = (id: string): string => {
      if (id.includes('zipCode')) return '00002'
      if (id.includes('dateOfBirth')) return '1990-01-01'
      if (id.includes('numberOfVehicles')) return '3'
      if (id === 'ctl-initialOffers') return '4'
      if (id.includes('--ow-color')) return '#7a1f5c'
      if (id.includes('--ow-font-size')) return '17px'
      if (id.includes('--ow-font')) return 'Georgia, serif'
      if (id.includes('--ow-')) return '5px'
      if (id === 'ctl-endpoint') return `${server.url}/other`
      return `value of ${id}`
    }
    for (const control of controls) {
      const path = control.id.replace(/^ctl-/, '').replace(/^(\w+)-/, '$1.')
      const selector = `[id="${control.id}"]`
      let expected: unknown
      if (control.tag === 'select') {
        const options = await page.$$eval(`${selector} option`, (os) =>
          os.map((o) => (o as HTMLOptionElement).value),
        )
        const current = await page.$eval(selector, (s) => (s as HTMLSelectElement).value)
        const choice = options.filter((o) => o !== '' && o !== current).pop() ?? ''
        await page.selectOption(selector, choice)
        expected = /^\d+$/.test(choice)
          ? Number(choice)
          : choice === 'true'
            ? true
            : choice === 'false'
              ? false
              : choice
      } else if (control.type === 'checkbox') {
        const was = await page.isChecked(selector)
        await page.click(selector)
        expected = !was
      } else if (control.tag === 'textarea') {
        expected = path === 'search.clientTags' ? { subId: ['top-slot'] } : { note: 'any JSON object' }
        await page.fill(selector, JSON.stringify(expected))
        await page.click('#pg-tab-controls') // blur applies it
      } else {
        const text = valueFor(control.id)
        await page.fill(selector, text)
        await page.press(selector, 'Enter')
        expected = control.type === 'number' ? Number(text) : text
      }
      await eventually(() => urlArgs(page)[path], path).toEqual(expected)
      await page.click('text=Reset to story defaults')
      await eventually(() => Object.keys(urlArgs(page)).length, `reset after ${path}`).toBe(0)
    }

    // A colour variable's picker sets #rrggbb, as its text field would.
    await page.fill('[id="ctl-themeVariables---ow-color-accent-picker"]', '#7a1f5c')
    await eventually(() => urlArgs(page)['themeVariables.--ow-color-accent']).toBe('#7a1f5c')
    expect(await page.inputValue('[id="ctl-themeVariables---ow-color-accent"]')).toBe('#7a1f5c')
    await page.click('text=Reset to story defaults')

    // What the widget does with them. Visual args go through update(): no new search.
    await waitForStatus(frame, ['complete'], HOST)
    const searches = await created(page)
    await setSelect(page, 'theme', 'dark')
    await setText(page, 'labels.heading', 'Quotes for you')
    await setSelect(page, 'headingLevel', '4')
    await setText(page, 'themeVariables.--ow-color-accent', 'rgb(10, 120, 80)')
    await setText(page, 'className', 'publisher-skin')
    await frame.waitForFunction(() => {
      const root = document.querySelector('#widget')?.shadowRoot?.querySelector<HTMLElement>('.ow-root')
      return (
        root?.dataset.owTheme === 'dark' &&
        root.querySelector('h4.ow-heading')?.textContent === 'Quotes for you' &&
        root.style.getPropertyValue('--ow-color-accent') === 'rgb(10, 120, 80)' &&
        root.classList.contains('publisher-skin')
      )
    })
    expect(await created(page)).toBe(searches)
    expect(page.url()).toContain('theme')

    // The link keeps them: a reload opens the same widget.
    await page.reload()
    const reloaded = await previewFrame(page)
    await reloaded.waitForFunction(() => {
      const root = document.querySelector('#widget')?.shadowRoot?.querySelector<HTMLElement>('.ow-root')
      return (
        root?.dataset.owTheme === 'dark' &&
        root.querySelector('h4.ow-heading')?.textContent === 'Quotes for you'
      )
    })
    expect(await page.$eval('#ctl-theme', (s) => (s as HTMLSelectElement).value)).toBe('dark')

    // Endpoint: typing does not start a search per keystroke; Enter (or leaving the field) does.
    await waitForStatus(reloaded, ['searching', 'complete'], HOST)
    const before = await logLines(page)
    const endpoint = await revealControl(page, 'endpoint')
    await page.click(endpoint, { clickCount: 3 })
    await page.type(endpoint, `${server.url}/typed`)
    const during = await logLines(page)
    expect(during.slice(-before.length)).toEqual(before) // the run (and its log) carried on
    expect(during.filter((l) => l.includes('/typed/'))).toEqual([])
    await page.press(endpoint, 'Enter')
    await eventually(async () =>
      (await logLines(page)).some((l) => l.includes('/typed/api/offer-searches')),
    ).toBe(true)
    expect((await logLines(page)).filter((l) => l.startsWith('request') && l.endsWith('→ 201'))).toHaveLength(
      1,
    )

    // Preview: turning it off starts a new search and says why, instead of firing every pixel at once.
    await page.check(await revealControl(page, 'preview'))
    await eventually(async () =>
      (await logLines(page)).some((l) => l.includes('preview on: a new search')),
    ).toBe(true)
    await waitForStatus(reloaded, ['complete'], HOST)
    expect((await logLines(page)).filter((l) => l.startsWith('pixel'))).toEqual([])
    await page.uncheck(await revealControl(page, 'preview'))
    await eventually(async () =>
      (await logLines(page)).some((l) => l.includes('preview off: a new search')),
    ).toBe(true)

    // form and source change what the widget does.
    await setSelect(page, 'form', 'always')
    await waitForStatus(reloaded, ['form'], HOST)
    await setSelect(page, 'form', 'auto')
    // A second look with no complete lead: the widget's own loan application (issue 40).
    await setSelect(page, 'source', 'second-look')
    await eventually(async () => (await readApplication(reloaded, HOST))?.heading).toBe(
      DEFAULT_LOAN_LABELS.loanHeading,
    )

    // Reset returns to the story's args.
    await page.click('text=Reset to story defaults')
    await waitForStatus(reloaded, ['searching', 'complete'], HOST)
    expect(urlArgs(page)).toEqual({})
    expect(await page.$eval('#ctl-theme', (s) => (s as HTMLSelectElement).value)).toBe('')
    expect(scriptErrors(errors)).toEqual([])
    await page.close()
  }, 240_000)

  it('emptyState hide renders nothing once a search completes empty', async () => {
    const { page } = await open('?story=no-offers')
    const frame = await previewFrame(page)
    await setSelect(page, 'emptyState', 'hide')
    await eventually(async () => (await logLines(page)).some((l) => l.includes('onComplete 0 offers'))).toBe(
      true,
    )
    expect(
      await frame.$eval('#widget', (host) => host.shadowRoot?.querySelector('.ow-root') ?? null),
    ).toBeNull()
    await page.close()
  })

  it('copies code that, pasted into a blank page on another origin, renders the same widget', async () => {
    const { page, errors } = await open('?story=non-active&mode=bff&panel=code')
    const frame = await previewFrame(page)
    await setSelect(page, 'theme', 'dark')
    await setText(page, 'labels.viewRate', 'See this rate')
    await waitForStatus(frame, ['complete'], HOST)
    const onScreen = await readWidget(frame, HOST)
    await page.click('#pg-tab-code')
    await page.click('text=Copy script-tag code')
    await page.waitForSelector('.pg-code [role="status"]:has-text("Copied")')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(await page.$eval('[data-code="script"]', (pre) => pre.textContent))
    // As `npm run snippet` prints it: the line's stable URL, which follows the BFF's upgrades, no SRI.
    expect(copied).toMatch(new RegExp(`"${server.url}/embed/v\\d+(?:\\.\\d+)?/offer-widget\\.js",""`))
    await page.click('text=Copy React code')
    const react = await page.evaluate(() => navigator.clipboard.readText())
    expect(react).toContain('theme="dark"')
    expect(react).toContain("viewRate: 'See this rate'")
    expect(react).toContain(`endpoint="${server.url}"`)

    blankPage = `<!doctype html><html lang="en"><head><title>pasted</title></head><body>\n${copied}</body></html>`
    const pasted = await browser.context.newPage()
    const pastedErrors = collectErrors(pasted)
    await pasted.goto(`${elsewhereUrl}/`)
    await waitForStatus(pasted, ['complete'], '#offer-widget')
    const there = await readWidget(pasted, '#offer-widget')
    expect(there).toMatchObject({
      status: onScreen?.status,
      carriers: onScreen?.carriers,
      // Headlines are left out: the sandbox words each search's headlines afresh.
      disclaimers: onScreen?.disclaimers,
    })
    expect(
      await pasted.$eval('#offer-widget', (host) => ({
        theme: host.shadowRoot?.querySelector<HTMLElement>('.ow-root')?.dataset.owTheme,
        cta: host.shadowRoot?.querySelector('.ow-cta')?.textContent,
      })),
    ).toEqual({ theme: 'dark', cta: expect.stringContaining('See this rate') })
    await screenshot(pasted, 'playground-pasted-code')
    expect(scriptErrors(pastedErrors)).toEqual([])
    expect(scriptErrors(errors)).toEqual([])
    await pasted.close()
    await page.close()
  })

  it('renders viewports at their real width (container queries see it) and switches backgrounds', async () => {
    const { page } = await open('?story=offers-arriving')
    const frame = await previewFrame(page)
    for (const width of [360, 768, 1280]) {
      await page.selectOption('#pg-viewport', String(width))
      await eventually(() => frame.evaluate(() => window.innerWidth)).toBe(width)
      await waitForStatus(frame, ['complete'], HOST)
      const layout = await frame.evaluate(() => {
        const root = document.querySelector('#widget')?.shadowRoot?.querySelector('.ow-root')
        const cta = root?.querySelector('.ow-cta')
        return {
          width: root?.getBoundingClientRect().width,
          ctaColumn: cta ? getComputedStyle(cta).gridColumnStart : undefined,
        }
      })
      // The frame's body has 16 px padding each side; the widget fills the rest, uncapped.
      expect(layout.width).toBe(width - 32)
      // The container query (36em) sees that width: the call to action moves beside the text past a phone.
      expect(layout.ctaColumn).toBe(width === 360 ? 'auto' : '2')
      expect(new URL(page.url()).searchParams.get('vp')).toBe(String(width))
      await screenshot(page, `playground-viewport-${width}`)
    }
    for (const background of ['dark', 'busy', 'light']) {
      await page.selectOption('#pg-background', background)
      await eventually(() => frame.evaluate(() => document.body.className)).toBe(`bg-${background}`)
      if (background !== 'light') await screenshot(page, `playground-background-${background}`)
    }
    await page.close()
  })

  it('lists an axe violation with its node, and clears it when the control is reset', async () => {
    const { page } = await open('?story=no-offers')
    const frame = await previewFrame(page)
    await waitForStatus(frame, ['complete'], HOST)
    // Near-white text on the light theme's white surface: a contrast failure axe must report.
    await setText(page, 'themeVariables.--ow-color-muted', '#f4f4f4')
    await setText(page, 'themeVariables.--ow-color-text', '#fafafa')
    await page.click('#pg-tab-a11y')
    await page.waitForSelector('.pg-violation')
    const listed = await page.$eval('.pg-violation', (li) => ({
      text: li.textContent ?? '',
      target: li.querySelector('li code')?.textContent ?? '',
      html: li.querySelector('li pre')?.textContent ?? '',
    }))
    expect(listed.text).toContain('color-contrast')
    expect(listed.target).toMatch(/#widget/)
    expect(listed.html).toMatch(/^</)
    expect(await page.textContent('#pg-tab-a11y')).toMatch(/\(\d+\)/)
    await screenshot(page, 'playground-a11y-violation')
    await page.click('#pg-tab-controls')
    await page.click('text=Reset to story defaults')
    await eventually(async () => (await a11yIn(page, ['complete'])).violations).toBe(0)
    await page.close()
  })

  it('pauses, steps one second and jumps to the end of the 15 s window in msw mode', async () => {
    const { page } = await open('?story=offers-arriving')
    const frame = await previewFrame(page)
    await page.waitForFunction(
      () => (document.querySelector('.pg-clock') as HTMLElement)?.dataset.elapsed !== '',
    )
    await page.click('.pg-time >> text=Pause')
    await eventually(async () => (await readClock(page)).paused).toBe(true)
    const paused = await readClock(page)
    const polls = async () =>
      (await logLines(page)).filter((l) => /^request .*\/api\/offer-searches\/[\w-]+ → /.test(l)).length
    const pollsBefore = await polls()
    const statusBefore = (await readWidget(frame, HOST))?.status
    expect(statusBefore).toBe('searching')

    await page.click('text=Step 1 s')
    await eventually(async () => (await readClock(page)).elapsed).toBe((paused.elapsed ?? 0) + 1000)
    // One second of widget time is one more poll (a poll a second), and the clock stays paused.
    await eventually(polls).toBe(pollsBefore + 1)
    expect((await readClock(page)).paused).toBe(true)

    await page.click('text=End of 15 s window')
    await waitForStatus(frame, ['complete'], HOST)
    // The widget completes as the last partner answers (11 s); the clock goes on to the window's end.
    await eventually(async () => ((await readClock(page)).elapsed ?? 0) >= 15_000).toBe(true)
    expect((await readWidget(frame, HOST))?.carriers).toHaveLength(3)
    expect(await logLines(page)).toContainEqual(expect.stringContaining('onComplete 5 offers'))
    await screenshot(page, 'playground-time-end')
    await page.click('.pg-time >> text=Play')
    await eventually(async () => (await readClock(page)).paused).toBe(false)
    await page.close()
  })

  it('event log: filter by kind, clear, copy as JSON, reachable by keyboard; the page itself passes axe', async () => {
    const { page } = await open('?story=offers-arriving')
    const frame = await previewFrame(page)
    await page.click('text=End of 15 s window', { timeout: 20_000 })
    await waitForStatus(frame, ['complete'], HOST)
    // The frame posts its log lines to the page: the last may arrive just after the status.
    await eventually(async () =>
      (await logLines(page)).some((l) => l.startsWith('event search_complete')),
    ).toBe(true)
    const all = await logLines(page)
    expect(new Set(all.map((l) => l.split(' ')[0]))).toEqual(
      new Set(['request', 'pixel', 'callback', 'event', 'info', 'play']),
    )
    // Every event of the contract the story's flow fires (docs/events.md), in order, each offer with its slot.
    // The log lists the newest first.
    const events = all
      .filter((l) => l.startsWith('event'))
      .map((l) => l.split(' ')[1])
      .reverse()
    expect([...new Set(events)]).toEqual(['search_created', 'offers_shown', 'search_complete'])
    expect(all.findLast((l) => l.startsWith('event offers_shown'))).toMatch(/offers=\[.+ @1 #\d+/)

    await page.click('.pg-kind:has-text("event")')
    await page.click('.pg-kind:has-text("pixel")')
    await page.click('.pg-kind:has-text("request")')
    await page.click('.pg-kind:has-text("play")')
    const callbacksOnly = await logLines(page)
    expect(callbacksOnly.length).toBeGreaterThan(0)
    expect(callbacksOnly.filter((l) => !l.startsWith('callback') && !l.startsWith('info'))).toEqual([])

    await page.click('text=Copy as JSON')
    await page.waitForSelector('.pg-log [role="status"]:has-text("Copied")')
    const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      kind: string
      text: string
      at: number
    }[]
    expect(json).toHaveLength(callbacksOnly.length)
    expect(json[0]?.text).toContain('onSearchCreated')
    expect(json.filter((e) => typeof e.at !== 'number')).toEqual([])

    // Keyboard: the list is a tab stop of its own and scrolls with the arrow keys.
    await page.focus('text=Copy as JSON')
    let reached = false
    for (let i = 0; i < 5 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await page.evaluate(() => document.activeElement?.classList.contains('pg-log-list') ?? false)
    }
    expect(reached).toBe(true)

    await page.addScriptTag({ path: AXE_PATH })
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (c: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>
          }
        }
      ).axe
      const result = await axe.run({ exclude: [['iframe.pg-frame']] })
      return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)
    })
    expect(violations).toEqual([])

    await page.click('.pg-log-bar >> text=Clear')
    expect(await logLines(page)).toEqual([])
    await page.close()
  })
})
