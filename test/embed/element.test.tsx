/**
 * @module `<offer-widget>` in jsdom against the msw scenarios: attributes become options, callbacks become
 * DOM events, an attribute change re-renders (a removed one clears its option), the `options` property
 * carries what is not text, a move keeps the widget, a removal unmounts it, and server HTML with its
 * declarative shadow root is adopted instead of rendered again.
 */
import { act } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineOfferWidgetElement, ELEMENT_EVENTS, ELEMENT_TAG } from '../../src/embed/element.ts'
import { assetHandlers, scenarios } from '../../src/playground/scenarios/handlers.ts'
import { advance, countRequests, ENDPOINT, server, setupWidgetTests } from '../widget/support/widget-tests.ts'

setupWidgetTests()

beforeAll(() => {
  defineOfferWidgetElement()
})
beforeEach(() => {
  server.use(...scenarios.happyPath.create().handlers, ...assetHandlers)
})
// Async act: a removal unmounts in a microtask (so a move does not), which act must wait for.
afterEach(async () => {
  await act(async () => {
    document.body.innerHTML = ''
  })
})

/** Adds `<offer-widget>` with these attributes to the page (connecting it mounts the widget). */
async function addElement(attributes: Record<string, string>): Promise<HTMLElement> {
  const element = document.createElement(ELEMENT_TAG)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  await act(async () => {
    document.body.append(element)
  })
  return element
}

const root = (element: Element) => element.shadowRoot?.querySelector<HTMLElement>('.ow-root') ?? null

describe('<offer-widget>', () => {
  it('is defined once; defining again returns the same class', () => {
    expect(customElements.get(ELEMENT_TAG)).toBe(defineOfferWidgetElement())
    expect(document.createElement(ELEMENT_TAG)).toBeInstanceOf(customElements.get(ELEMENT_TAG) as never)
  })

  it('maps attributes to options and searches with them, in its own shadow root', async () => {
    const requests = countRequests()
    const element = await addElement({ endpoint: ENDPOINT, 'zip-code': '94107', theme: 'dark', id: 'quotes' })
    await advance(4000)
    expect(root(element)?.dataset.owTheme).toBe('dark')
    expect(element.shadowRoot?.querySelectorAll('.ow-card').length).toBeGreaterThan(0)
    expect(requests.count('POST', '/api/offer-searches')).toBe(1)
    expect(element.children).toHaveLength(0)
  })

  it('turns each callback into a bubbling DOM event with the callback’s argument as detail', async () => {
    const seen: Array<{ type: string; detail: unknown }> = []
    for (const type of Object.values(ELEMENT_EVENTS))
      document.addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }))
    await addElement({ endpoint: ENDPOINT, 'zip-code': '94107' })
    await advance(4000)
    const types = seen.map((event) => event.type)
    expect(types).toEqual(expect.arrayContaining(['search-created', 'offers-shown', 'complete']))
    expect(seen.find((event) => event.type === 'complete')?.detail).toEqual(
      expect.objectContaining({ offerCount: 4, incomplete: false }),
    )
  })

  it('analytics="dataLayer" pushes the contract to window.dataLayer; the `event` DOM event carries each event', async () => {
    const events: unknown[] = []
    const listener = (event: Event) => events.push((event as CustomEvent).detail)
    document.addEventListener('event', listener)
    const host = window as unknown as { dataLayer?: Array<{ event?: string }> }
    try {
      await addElement({ endpoint: ENDPOINT, 'zip-code': '94107', analytics: 'dataLayer' })
      await advance(4000)
      expect(events).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'search_created', source: 'offer-search' })]),
      )
      const pushed = (host.dataLayer ?? []).map((entry) => entry.event)
      expect(pushed).toEqual(
        expect.arrayContaining([
          'offer_widget_search_created',
          'view_item_list',
          'offer_widget_search_complete',
        ]),
      )
      expect(JSON.stringify(host.dataLayer)).not.toContain('94107')
    } finally {
      document.removeEventListener('event', listener)
      delete host.dataLayer
    }
  })

  it('re-renders on an attribute change, once for several in a task, and clears a removed option', async () => {
    const requests = countRequests()
    const element = await addElement({ endpoint: ENDPOINT, 'zip-code': '94107', theme: 'dark' })
    await advance(4000)
    await act(async () => {
      element.setAttribute('theme', 'light')
      element.setAttribute('heading-level', '3')
    })
    await advance()
    expect(root(element)?.dataset.owTheme).toBe('light')
    expect(element.shadowRoot?.querySelector('h3')).not.toBeNull()
    await act(async () => element.removeAttribute('heading-level'))
    await advance()
    expect(element.shadowRoot?.querySelector('h2')).not.toBeNull()
    // Visual options re-render the same search.
    expect(requests.count('POST', '/api/offer-searches')).toBe(1)
  })

  it('warns about a bad attribute naming the fix, and mounts with the rest', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const element = await addElement({
      endpoint: ENDPOINT,
      'zip-code': '94107',
      theme: 'purple',
      zipcode: '1',
    })
    await advance(4000)
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/theme="purple" on <offer-widget> is invalid.*"light" or "dark"/),
    )
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/zipcode on <offer-widget> is not an option; did you mean zip-code\?/),
    )
    expect(root(element)).not.toBeNull()
    warn.mockRestore()
  })

  it('takes what is not text through the options property, its callbacks beside the events', async () => {
    const element = document.createElement(ELEMENT_TAG) as HTMLElement & { options: object }
    const onComplete = vi.fn()
    element.setAttribute('endpoint', ENDPOINT)
    element.options = { search: { zipCode: '94107' }, labels: { heading: 'Vos offres' }, onComplete }
    await act(async () => {
      document.body.append(element)
    })
    await advance(4000)
    expect(element.shadowRoot?.textContent).toContain('Vos offres')
    expect(onComplete).toHaveBeenCalledTimes(1)
  })

  it('keeps the widget when moved within the page, and unmounts it when removed', async () => {
    const element = await addElement({ endpoint: ENDPOINT, 'zip-code': '94107' })
    await advance(4000)
    const other = document.createElement('section')
    await act(async () => {
      document.body.append(other)
      other.append(element)
    })
    await advance()
    expect(root(element)).not.toBeNull()
    await act(async () => element.remove())
    await advance()
    expect(root(element)).toBeNull()
    expect(vi.getTimerCount()).toBe(0)
  })
})
