/**
 * @module Every offer-search story's play script, run as the preview frame runs it but in jsdom: the widget
 * mounted with src/embed's `mount()` from the story's msw-mode args on its own msw scenario, the play's
 * `waitSeconds` moving fake timers (as the frame moves its clock). A story whose expected result no longer
 * holds fails here, naming the step, before the browser suite runs it.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type MountHandle, mount } from '../../src/embed/index.ts'
import { runPlay } from '../../src/playground/frame/run-play.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { STORIES, storyArgs, storyPlay } from '../../src/playground/stories.ts'
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
  vi.useRealTimers()
})

describe('the offer-search and second-look stories', () => {
  for (const story of STORIES.filter((s) => s.group !== 'Loan application')) {
    it(`${story.id}: its play passes`, async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
      server.use(...scenarios[story.scenario].create().handlers)
      const host = document.createElement('div')
      document.body.append(host)
      handle = mount(host, { ...storyArgs(story, 'msw'), endpoint: ENDPOINT })
      const lines: string[] = []
      const result = await runPlay(host.shadowRoot as ShadowRoot, storyPlay(story, 'msw') ?? [], {
        wait: (ms) => vi.advanceTimersByTimeAsync(ms).then(() => undefined),
        now: () => Date.now(),
        letTimePass: async (ms) => {
          for (let left = ms; left > 0; left -= 100) await vi.advanceTimersByTimeAsync(100)
        },
        log: (text) => lines.push(text),
      })
      expect(result, lines.join('\n')).toMatchObject({ status: 'passed' })
      // The hostile offer's javascript: link is the one item a story's widget leaves out, and says so.
      const warned = warn.mock.calls.map((call) => call.join(' '))
      warn.mockRestore()
      if (story.id === 'unmonetized') expect(warned).toEqual([expect.stringContaining('non_http_link')])
      else expect(warned).toEqual([])
    })
  }
})
