/**
 * @module The widget's half of placements (docs/placements.md): the `placement` option rides with the search
 * or the lead, names the list in `dataLayer`, and an offer search's shown offers and clicks reach the BFF as
 * measures (each offer once, StrictMode included); never for a second look (the BFF sees those itself) or a
 * preview. A placement the widget cannot send is dropped with a warning that names the fix.
 */
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { FakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { OfferWidget, type OfferWidgetProps } from '../../src/widget/index.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const host = window as unknown as { dataLayer?: Record<string, unknown>[] }
afterEach(() => {
  delete host.dataLayer
})

function mount(bff: FakeBff, props: Partial<OfferWidgetProps>) {
  server.use(...bff.handlers)
  render(
    <StrictMode>
      <OfferWidget endpoint={ENDPOINT} pixelTracker={createPixelTracker(vi.fn())} {...props} />
    </StrictMode>,
  )
}

const shownIn = (bff: FakeBff) =>
  bff.log.measures.flatMap(({ measure }) => ('shown' in measure ? measure.shown : []))
const clickedIn = (bff: FakeBff) =>
  bff.log.measures.flatMap(({ measure }) => ('clicked' in measure ? [measure.clicked] : []))
const cardUuids = () =>
  [...document.querySelectorAll('li.ow-card')].map((card) => card.getAttribute('data-offer-uuid'))

describe('placement', () => {
  test('travels with the offer search; every offer shown is measured once, and a click', async () => {
    const bff = scenarios.offersOverTime.create()
    mount(bff, { search: { zipCode: '94107' }, placement: 'home-hero', initialOffers: 3 })
    await advance(12_000)
    expect(bff.log.creates.map((create) => create.body)).toEqual([
      expect.objectContaining({ placement: 'home-hero', personalInformation: { zipCode: '94107' } }),
    ])
    const uuid = bff.log.creates.length === 1 ? (bff.log.polls[0]?.uuid ?? '') : ''
    expect(bff.log.measures.every((m) => m.uuid === uuid)).toBe(true)
    // Exactly the cards on screen, each once, though StrictMode ran every effect twice.
    expect(shownIn(bff).toSorted()).toEqual(cardUuids().toSorted())
    expect(cardUuids()).toHaveLength(3)

    const typist = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
    const link = screen.getAllByRole('link', { name: /View rate/ })[1] as HTMLElement
    link.addEventListener('click', (event) => event.preventDefault())
    await typist.click(link)
    await typist.click(screen.getByRole('button', { name: /Show \d+ more/ }))
    await advance()
    expect(clickedIn(bff)).toEqual([cardUuids()[1]])
    // "Show N more" brought the rest on screen: measured too, still each once.
    expect(shownIn(bff).toSorted()).toEqual(cardUuids().toSorted())
    expect(new Set(shownIn(bff)).size).toBe(shownIn(bff).length)
  })

  test('names the list of GA4 item events under analytics="dataLayer"', async () => {
    mount(scenarios.happyPath.create(), {
      search: { zipCode: '94107' },
      placement: 'quote-sidebar',
      analytics: 'dataLayer',
    })
    await advance(6000)
    const lists = (host.dataLayer ?? []).flatMap((entry) =>
      entry.event === 'view_item_list'
        ? [(entry.ecommerce as { item_list_name: string }).item_list_name]
        : [],
    )
    expect(lists.length).toBeGreaterThan(0)
    expect(new Set(lists)).toEqual(new Set(['quote-sidebar']))
  })

  test('travels with a second-look lead, which is never measured by the widget', async () => {
    const bff = scenarios.secondLookLoans.create()
    mount(bff, { source: 'second-look', lead: SAMPLE_LEAD, placement: 'loans-footer' })
    await advance(30_000)
    expect(bff.log.creates.map((create) => create.body)).toEqual([
      expect.objectContaining({ placement: 'loans-footer' }),
    ])
    expect(cardUuids().length).toBeGreaterThan(0)
    expect(bff.log.measures).toEqual([])
  })

  test('a preview is never measured', async () => {
    const bff = scenarios.happyPath.create()
    mount(bff, { search: { zipCode: '94107' }, placement: 'home-hero', preview: true })
    await advance(6000)
    expect(cardUuids().length).toBeGreaterThan(0)
    expect(bff.log.measures).toEqual([])
  })

  test('a placement it cannot send is dropped with a warning naming the fix; the search goes on without it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const bff = scenarios.happyPath.create()
    mount(bff, { search: { zipCode: '94107' }, placement: 'jane@example.com' })
    await advance(6000)
    expect(bff.log.creates).toHaveLength(1)
    expect(bff.log.creates[0]?.body).not.toHaveProperty('placement')
    expect(warn.mock.calls.flat().join(' ')).toMatch(/placement.*home-hero/)
  })
})
