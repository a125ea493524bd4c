/**
 * @module Every loan-application story run as the preview frame runs it, in jsdom: the widget mounted with
 * src/embed's `mount()` from the story's msw-mode args on its own msw scenario, then its play script. A
 * story whose play no longer reaches its state (a label reworded, a refusal the application no longer shows)
 * fails here, and so does a story whose summary's promise about the BFF (nothing sent, one lead refused) no
 * longer holds.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BFF_ROUTES } from '../../src/contract/bff.ts'
import { type MountHandle, mount } from '../../src/embed/index.ts'
import { runPlay } from '../../src/playground/frame/run-play.ts'
import { LOAN_STORIES } from '../../src/playground/loan-stories.ts'
import type { FakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { STORIES, storyArgs, storyPlay } from '../../src/playground/stories.ts'
import { DEFAULT_LOAN_LABELS } from '../../src/widget/loan-application/loan-labels.ts'
import { failOnUnhandledRequest } from '../support/test-leftovers.ts'

const ENDPOINT = 'https://bff.offer-widget.test'
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: failOnUnhandledRequest }))
afterAll(() => server.close())

let handle: MountHandle | undefined
afterEach(() => {
  handle?.unmount()
  handle = undefined
  server.resetHandlers()
  document.body.innerHTML = ''
})

const byId = (id: string) => {
  const story = STORIES.find((s) => s.id === id)
  if (!story) throw new Error(`no story ${id}`)
  return story
}

/** Mounts the story's widget on a fresh fake BFF of its scenario; the shadow root and the fake BFF. */
function mountStory(id: string): { root: ShadowRoot; bff: FakeBff } {
  const story = byId(id)
  const bff = scenarios[story.scenario].create()
  server.use(...bff.handlers)
  const host = document.createElement('div')
  document.body.append(host)
  handle = mount(host, { ...storyArgs(story, 'msw'), endpoint: ENDPOINT })
  return { root: host.shadowRoot as ShadowRoot, bff }
}

/** The story's play, on real time as in the frame; its verdict and log. */
async function playStory(id: string) {
  const { root, bff } = mountStory(id)
  const lines: string[] = []
  const result = await runPlay(root, storyPlay(byId(id), 'msw') ?? [], {
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: (text) => lines.push(text),
  })
  expect(result, lines.join('\n')).toMatchObject({ status: 'passed' })
  const status = root.querySelector<HTMLElement>('.ow-root')?.dataset.owStatus
  const leads = bff.log.creates.filter((c) => c.source === BFF_ROUTES.secondLook)
  return { root, status, leads, lines, bff }
}

const invalidFields = (root: ShadowRoot) =>
  [...root.querySelectorAll('[aria-invalid="true"]')].map(
    (control) => root.querySelector(`label[for="${control.id}"]`)?.textContent,
  )

describe('the loan application stories', () => {
  it('play in msw mode only, on the second-look source', () => {
    for (const story of LOAN_STORIES) {
      expect(storyPlay(story, 'bff'), story.id).toBeUndefined()
      expect(story.args.source, story.id).toBe('second-look')
    }
  })

  it('loan-empty and loan-prefilled open on the application, which fetches the consent texts', async () => {
    for (const id of ['loan-empty', 'loan-prefilled']) {
      const { root, status, bff } = await playStory(id)
      expect(root.textContent, id).toContain(DEFAULT_LOAN_LABELS.loanHeading)
      expect(status, id).toBe('form')
      await expect.poll(() => bff.log.consentTexts, { message: id }).toBe(1)
      handle?.unmount()
      handle = undefined
    }
  })

  it('loan-errors: one lead sent and refused; the application is back with the ZIP code marked', async () => {
    const { root, status, leads } = await playStory('loan-errors')
    expect(leads).toHaveLength(1)
    expect(status).toBe('form')
    expect(invalidFields(root)).toEqual([DEFAULT_LOAN_LABELS.loanZipcode])
    expect(root.textContent).toContain(DEFAULT_LOAN_LABELS.loanStepAddress)
  })

  it('loan-missing-consent: the FCRA error and nothing sent', async () => {
    const { root, status, leads } = await playStory('loan-missing-consent')
    expect(leads).toEqual([])
    expect(status).toBe('form')
    expect(invalidFields(root)).toHaveLength(1)
  })

  it('loan-submitting: the lead sent, the widget starting while the BFF takes its time', async () => {
    const { status, leads } = await playStory('loan-submitting')
    expect(leads).toHaveLength(1)
    expect(status).toBe('creating')
  })

  it('loan-duplicate: one lead sent, answered 409, the application back with its message', async () => {
    const { status, leads } = await playStory('loan-duplicate')
    expect(leads).toHaveLength(1)
    expect(status).toBe('form')
  })
})
