/**
 * @module The event contract as `<OfferWidget>` delivers it (docs/events.md), on a fake clock against msw
 * scenarios: the demo flow's exact sequence through `onEvent` and `window.dataLayer`, each offer with its
 * slot and rank, the legacy callbacks with `position` added, "More details" and the disclosure, field errors
 * by kind. And no visitor value in any event: a test that fails if one appears.
 */
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { scenarios } from '../../../src/playground/scenarios/handlers.ts'
import { OfferWidget, type OfferWidgetEvent, type OfferWidgetProps } from '../../../src/widget/index.ts'
import { createPixelTracker } from '../../../src/widget/pixel-tracker.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from '../support/widget-tests.ts'

setupWidgetTests()

const host = window as unknown as { dataLayer?: Record<string, unknown>[] }
afterEach(() => {
  delete host.dataLayer
})

/** What the visitor types: none of it may reach an event. */
const ZIP = '94107'
const DOB = '1990-04-17'

function mount(scenario: keyof typeof scenarios, props: Partial<OfferWidgetProps> = {}) {
  server.use(...scenarios[scenario].create().handlers)
  const events: OfferWidgetEvent[] = []
  const element = (
    <OfferWidget
      endpoint={ENDPOINT}
      pixelTracker={createPixelTracker(vi.fn())}
      onEvent={(event) => events.push(event)}
      {...props}
    />
  )
  render(<StrictMode>{element}</StrictMode>)
  return events
}

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
const noNavigation = (link: HTMLElement) => link.addEventListener('click', (e) => e.preventDefault())

/** Fails on any value the visitor gave or the browser knows of them, anywhere in `data`. */
function expectNoVisitorData(data: unknown): void {
  const text = JSON.stringify(data)
  for (const value of [ZIP, DOB, '1990', navigator.userAgent, '127.0.0.1', '12345']) {
    expect(text, `visitor value ${value} in ${text}`).not.toContain(value)
  }
  expect(text).not.toMatch(/userAgent|"ip"|zipCode":"|dateOfBirth":"|ssn|email|phone/i)
}

async function demoFlow() {
  const typist = user()
  await advance()
  await typist.type(screen.getByLabelText('ZIP code'), ZIP)
  await typist.type(screen.getByLabelText(/Date of birth/), DOB)
  await typist.click(screen.getByRole('button', { name: 'See my rates' }))
  await advance(12_000)
  const link = screen.getAllByRole('link', { name: /View rate/ })[1] as HTMLElement
  noNavigation(link)
  await typist.click(link)
  await typist.click(screen.getByRole('button', { name: /Show \d+ more/ }))
}

describe('the demo flow', () => {
  test('onEvent: form view, start, submit, search created, offers shown with slot and rank, a click, show more, complete', async () => {
    const events = mount('offersOverTime', { initialOffers: 3, search: {} })
    await demoFlow()
    expect(events.map((event) => event.type)).toEqual([
      'form_view',
      'form_start',
      'form_submit',
      'search_created',
      // The first three places fill over two polls: each batch new to the screen once, StrictMode included;
      // the last two arrive behind "Show 2 more".
      'offers_shown',
      'offers_shown',
      'search_complete',
      'offer_click',
      'show_more',
      'offers_shown',
    ])
    expect(events[1]).toEqual({ type: 'form_start', form: 'search', field: 'zipCode' })
    const shown = events.flatMap((event) => (event.type === 'offers_shown' ? event.offers : []))
    expect(shown.map((offer) => [offer.name, offer.position, offer.rank])).toEqual([
      ['Acme Mutual', 1, 1],
      ['Bluebonnet Insurance', 2, 2],
      ['Bluebonnet Insurance', 3, 3],
      ['Delta Direct', 4, 4],
      ['Evergreen General', 5, 5],
    ])
    const click = events.find((event) => event.type === 'offer_click')
    expect(click).toMatchObject({ source: 'offer-search', offer: { position: 2, rank: 2 } })
    expect(events.find((event) => event.type === 'show_more')).toEqual({
      type: 'show_more',
      source: 'offer-search',
      revealed: 2,
    })
    expectNoVisitorData(events)
  })

  test('analytics="dataLayer": GA4 view_item_list and select_item, the rest as offer_widget_*, nothing of the visitor', async () => {
    mount('offersOverTime', { initialOffers: 3, search: {}, analytics: 'dataLayer' })
    await demoFlow()
    const layer = host.dataLayer ?? []
    expect(layer.map((entry) => entry.event ?? 'ecommerce: null')).toEqual([
      'offer_widget_form_view',
      'offer_widget_form_start',
      'offer_widget_form_submit',
      'offer_widget_search_created',
      'ecommerce: null',
      'view_item_list',
      'ecommerce: null',
      'view_item_list',
      'offer_widget_search_complete',
      'ecommerce: null',
      'select_item',
      'offer_widget_show_more',
      'ecommerce: null',
      'view_item_list',
    ])
    expect(layer.find((entry) => entry.event === 'select_item')?.ecommerce).toMatchObject({
      item_list_id: 'offer-search',
      items: [{ item_name: 'Bluebonnet Insurance', item_category: 'AutomobileInsurance', index: 2 }],
    })
    expectNoVisitorData(layer)
  })

  test('the legacy callbacks keep their fields and gain position', async () => {
    const onOffersShown = vi.fn()
    const onOfferClick = vi.fn()
    mount('offersOverTime', { initialOffers: 3, search: {}, onOffersShown, onOfferClick })
    await demoFlow()
    expect(onOffersShown.mock.calls[0]?.[0]).toEqual([
      expect.objectContaining({ carrierName: 'Acme Mutual', rank: 1, position: 1, href: expect.any(String) }),
    ])
    expect(onOfferClick).toHaveBeenCalledWith(
      expect.objectContaining({ carrierName: 'Bluebonnet Insurance', rank: 2, position: 2 }),
    )
  })
})

describe('the form', () => {
  test('a field error names the field and its kind, never the value typed', async () => {
    const events = mount('happyPath', { search: {} })
    const typist = user()
    await advance()
    await typist.click(screen.getByRole('button', { name: 'See my rates' }))
    await typist.type(screen.getByLabelText('ZIP code'), '12345-67')
    await typist.type(screen.getByLabelText(/Date of birth/), '2030-01-01')
    await typist.click(screen.getByRole('button', { name: 'See my rates' }))
    const errors = events.filter((event) => event.type === 'form_field_error')
    expect(errors).toEqual([
      { type: 'form_field_error', form: 'search', field: 'zipCode', error: 'required' },
      { type: 'form_field_error', form: 'search', field: 'zipCode', error: 'invalid' },
      { type: 'form_field_error', form: 'search', field: 'dateOfBirth', error: 'invalid' },
    ])
    expect(events.some((event) => event.type === 'form_submit')).toBe(false)
    expect(JSON.stringify(events)).not.toMatch(/12345|2030/)
  })
})

describe('cards and disclosure', () => {
  test('More details opened and closed, with the offer in its slot; the disclosure opened once', async () => {
    const events = mount('longCopy', { search: { zipCode: ZIP } })
    const typist = user()
    await advance(12_000)
    const toggle = screen.getAllByRole('button', { name: 'More details' })[0] as HTMLElement
    await typist.click(toggle)
    await typist.click(screen.getByRole('button', { name: 'Fewer details' }))
    const disclosure = screen.getByRole('button', { name: 'Advertiser disclosure' })
    await typist.click(disclosure)
    await typist.click(disclosure)
    const details = events.filter((event) => event.type === 'more_details')
    expect(details).toEqual([
      expect.objectContaining({ open: true, offer: expect.objectContaining({ position: 1, rank: 1 }) }),
      expect.objectContaining({ open: false, offer: expect.objectContaining({ position: 1, rank: 1 }) }),
    ])
    expect(events.filter((event) => event.type === 'disclosure_open')).toEqual([
      { type: 'disclosure_open', via: 'text' },
    ])
    expectNoVisitorData(events)
  })

  test('an error: its kind, status and code only', async () => {
    const events = mount('persistentServerError', { search: { zipCode: ZIP } })
    await advance(20_000)
    const error = events.find((event) => event.type === 'error')
    expect(error && Object.keys(error).sort()).toEqual(['code', 'kind', 'status', 'type'])
    expect(error).toMatchObject({ type: 'error', kind: 'server' })
  })
})
