import { setupServer } from 'msw/node'
import { describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN_HEADER, BFF_ROUTES, WIDGET_HEADER } from '../../src/contract/bff.ts'
import type { RateTable } from '../../src/contract/offer-search.ts'
import { toFrameSchema } from '../../src/playground/frame/frame-protocol.ts'
import { SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { STORIES, storyArgs, storyBackendText, storyPlay } from '../../src/playground/stories.ts'
import { scenarioForZip } from '../../src/sandbox/scenarios.ts'
import { failOnUnhandledRequest } from '../support/test-leftovers.ts'

describe('playground stories', () => {
  it('have unique ids, run on msw scenarios that exist, and send runs the frame accepts', () => {
    expect(new Set(STORIES.map((s) => s.id)).size).toBe(STORIES.length)
    for (const story of STORIES) {
      expect(Object.keys(scenarios), story.id).toContain(story.scenario)
      for (const mode of ['msw', 'bff'] as const) {
        // The frame ignores a message it cannot read: a bad play script would leave the story unplayed.
        const run = {
          type: 'run',
          runId: 1,
          mode,
          scenario: story.scenario,
          args: storyArgs(story, mode),
          background: 'light',
          play: storyPlay(story, mode)?.slice(),
        }
        expect(toFrameSchema.safeParse(run).success, `${story.id} (${mode})`).toBe(true)
      }
    }
  })

  it('in BFF mode send the ZIP at which the sandbox serves the scenario the story names, and say what it does', () => {
    const sandboxStories = STORIES.filter((story) => 'sandbox' in story.bff)
    expect(sandboxStories.length).toBeGreaterThan(0)
    for (const story of sandboxStories) {
      const named = (story.bff as { sandbox: string }).sandbox
      // The sandbox's own choice for the ZIP the widget sends, as the BFF's upstream makes it per search.
      const served = scenarioForZip(storyArgs(story, 'bff').search?.zipCode)
      expect(served.name, story.id).toBe(named)
      expect(storyBackendText(story, 'bff'), story.id).toContain(served.description)
    }
  })

  it('give the second look a lead and no ZIP, and the empty form nothing', () => {
    const byId = (id: string) => STORIES.find((s) => s.id === id)
    const secondLook = byId('second-look')
    expect(secondLook?.scenario).toBe('secondLookLoans')
    expect(storyArgs(secondLook as (typeof STORIES)[number], 'bff')).toMatchObject({ source: 'second-look' })
    expect(storyArgs(byId('form-empty') as (typeof STORIES)[number], 'msw').search).toEqual({})
  })

  it('serve loan offers without pixels on the msw second-look handlers, once the lead settles', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-22T12:00:00Z') })
    const server = setupServer(...scenarios.secondLookLoans.create().handlers)
    server.listen({ onUnhandledRequest: failOnUnhandledRequest })
    try {
      const headers = { [WIDGET_HEADER]: '1', 'content-type': 'application/json' }
      const created = await fetch(`http://bff.test${BFF_ROUTES.secondLook}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(SAMPLE_LEAD),
      })
      expect(created.status).toBe(201)
      const { accessToken, rateTable } = (await created.json()) as {
        accessToken: string
        rateTable: RateTable
      }
      expect(rateTable.offers).toEqual([])
      const poll = async () => {
        const response = await fetch(`http://bff.test${BFF_ROUTES.secondLook}/${rateTable.uuid}`, {
          headers: { ...headers, [ACCESS_TOKEN_HEADER]: accessToken },
        })
        return (await response.json()) as RateTable
      }
      vi.advanceTimersByTime(5_000)
      const midway = await poll()
      expect(midway.offers).toEqual([])
      expect(midway.pendingResponses.map((p) => p.partner.name)).toEqual(['Sim Tardy Lender'])
      vi.advanceTimersByTime(7_000)
      const settled = await poll()
      expect(settled.pendingResponses).toEqual([])
      expect(settled.offers.length).toBeGreaterThan(0)
      for (const offer of settled.offers) {
        expect(offer.productType).toBe('installment_loan')
        expect(offer.impressionTrackingPixelUrls).toEqual([])
        expect(offer.url).toBe(offer.unmonetizedUrl)
        // An installment loan's terms as figures, plausible for a personal loan.
        expect(offer.loanTerms?.aprPercent?.min).toBeGreaterThan(0)
        expect(offer.loanTerms?.termMonths).toEqual({ min: 24, max: 60 })
      }
    } finally {
      server.close()
      vi.useRealTimers()
    }
  })
})
