/**
 * @module The bundle entry: installs `window.OfferWidget`, replays the snippet's queue, auto-mounts
 * `[data-offer-widget]` with warnings for bad attributes, and does nothing when loaded twice.
 */
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loaderScript } from '../../src/embed/loader-snippet.ts'
import { assetHandlers, scenarios } from '../../src/playground/scenarios/handlers.ts'
import { toSearchInput } from '../../src/widget/search-input.ts'
import { advance, countRequests, ENDPOINT, server, setupWidgetTests } from '../widget/support/widget-tests.ts'

setupWidgetTests()

type Global = { OfferWidget?: { version?: string; mount: (el: Element, o: object) => { unmount(): void } } }
const global = window as unknown as Global

beforeEach(() => {
  server.use(...scenarios.happyPath.create().handlers, ...assetHandlers)
  delete global.OfferWidget
  vi.resetModules()
})
afterEach(() => {
  document.body.innerHTML = ''
  document.head.innerHTML = ''
})

describe('auto.ts (the script-tag bundle)', () => {
  it('replays the queue and mounts data-attribute mount points, warning about bad values', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    document.body.innerHTML = `
      <div id="a" data-offer-widget data-endpoint="${ENDPOINT}" data-zip-code="94107" data-number-of-vehicles="lots"></div>
      <div id="b"></div>`
    // biome-ignore lint/security/noGlobalEval: the snippet text, run exactly as a page runs it
    globalThis.eval(loaderScript({ src: '/embed/offer-widget.0.1.0-0000000000.js' }))
    const queued = global.OfferWidget?.mount(document.getElementById('b') as Element, {
      endpoint: ENDPOINT,
      theme: 'dark',
    })
    await act(async () => {
      await import('../../src/embed/auto.ts')
    })
    await advance(4000)
    expect(global.OfferWidget?.version).toBe('0.1.0')
    expect(document.getElementById('a')?.shadowRoot?.querySelectorAll('.ow-card')).toHaveLength(3) // the initial three of four offers
    expect(
      document.getElementById('b')?.shadowRoot?.querySelector('.ow-root')?.getAttribute('data-ow-theme'),
    ).toBe('dark')
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('data-number-of-vehicles="lots" on <div#a> is invalid'),
    )
    act(() => queued?.unmount())
    expect(document.getElementById('b')?.shadowRoot?.childNodes).toHaveLength(0)
    warn.mockRestore()
  })

  it('a second copy of the bundle warns and leaves the first in charge', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await import('../../src/embed/auto.ts')
    const first = global.OfferWidget
    vi.resetModules()
    await import('../../src/embed/auto.ts')
    expect(global.OfferWidget).toBe(first)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('the bundle ran twice'))
    warn.mockRestore()
  })

  describe('early search (issue 31)', () => {
    const SRC = '/embed/offer-widget.0.1.0-0000000000.js'
    const runSnippet = () =>
      // biome-ignore lint/security/noGlobalEval: the snippet text, run exactly as a page runs it
      globalThis.eval(loaderScript({ src: SRC }))
    const cards = (id: string) => document.getElementById(id)?.shadowRoot?.querySelectorAll('.ow-card') ?? []

    it('a mount point naming only a ZIP is searched by the snippet, and the widget shows that search: one POST', async () => {
      const requests = countRequests()
      const bodies: string[] = []
      server.events.on('request:start', async ({ request }) => {
        if (request.method === 'POST') bodies.push(await request.clone().text())
      })
      document.body.innerHTML = `<div id="a" data-offer-widget data-endpoint="${ENDPOINT}" data-zip-code="94107"></div>`
      runSnippet()
      await advance(0)
      // Sent before the bundle ran, with the body the widget itself would send.
      expect(requests.count('POST', '/api/offer-searches')).toBe(1)
      expect(bodies).toEqual([JSON.stringify(toSearchInput({ zipCode: '94107' }))])
      await act(async () => {
        await import('../../src/embed/auto.ts')
      })
      await advance(4000)
      expect(cards('a')).toHaveLength(3)
      expect(requests.count('POST', '/api/offer-searches')).toBe(1)
      expect(requests.count('GET', /\/api\/offer-searches\/[\w-]+$/)).toBeGreaterThan(0)
    })

    it('a placement rides in the early search: the snippet sends it, the widget adopts that search (one POST) and measures what it shows', async () => {
      const requests = countRequests()
      const bodies: string[] = []
      server.events.on('request:start', async ({ request }) => {
        if (request.method === 'POST') bodies.push(await request.clone().text())
      })
      document.body.innerHTML = `<div id="a" data-offer-widget data-endpoint="${ENDPOINT}" data-zip-code="94107" data-placement="home-hero"></div>`
      runSnippet()
      await advance(0)
      expect(bodies).toEqual([
        JSON.stringify({ ...toSearchInput({ zipCode: '94107' }), placement: 'home-hero' }),
      ])
      await act(async () => {
        await import('../../src/embed/auto.ts')
      })
      await advance(4000)
      expect(cards('a')).toHaveLength(3)
      expect(requests.count('POST', '/api/offer-searches')).toBe(1)
      const measures = bodies.filter((body) => body.startsWith('{"shown"'))
      expect(measures.flatMap((body) => (JSON.parse(body) as { shown: string[] }).shown)).toHaveLength(3)
    })

    it('leaves a mount point with other search data, or with the form asked for, to the widget', async () => {
      const requests = countRequests()
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      document.body.innerHTML = `
        <div id="a" data-offer-widget data-endpoint="${ENDPOINT}" data-zip-code="94107" data-date-of-birth="1988-04-21"></div>
        <div id="b" data-offer-widget data-endpoint="${ENDPOINT}" data-zip-code="94107" data-form="always"></div>`
      runSnippet()
      await advance(0)
      expect(requests.count('POST', '/api/offer-searches')).toBe(0)
      await act(async () => {
        await import('../../src/embed/auto.ts')
      })
      await advance(4000)
      // The widget's own search for #a; #b shows its form.
      expect(requests.count('POST', '/api/offer-searches')).toBe(1)
      expect(cards('a')).toHaveLength(3)
      warn.mockRestore()
    })

    it('a search the snippet sent is used once: a second widget with the same search sends its own', async () => {
      const requests = countRequests()
      document.body.innerHTML = `<div id="a" data-offer-widget data-endpoint="${ENDPOINT}" data-zip-code="94107"></div><div id="b"></div>`
      runSnippet()
      runSnippet()
      await act(async () => {
        await import('../../src/embed/auto.ts')
      })
      await advance(0)
      expect(requests.count('POST', '/api/offer-searches')).toBe(1)
      act(() => {
        global.OfferWidget?.mount(document.getElementById('b') as Element, {
          endpoint: ENDPOINT,
          search: { zipCode: '94107' },
        })
      })
      await advance(4000)
      expect(requests.count('POST', '/api/offer-searches')).toBe(2)
      expect(cards('a')).toHaveLength(3)
      expect(cards('b')).toHaveLength(3)
    })
  })
})
