/**
 * @module The bundle entry: installs `window.OfferWidget`, replays the snippet's queue, auto-mounts
 * `[data-offer-widget]` with warnings for bad attributes, and does nothing when loaded twice.
 */
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loaderScript } from '../../src/embed/loader-snippet.ts'
import { assetHandlers, scenarios } from '../../src/playground/scenarios/handlers.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from '../widget/support/widget-tests.ts'

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
})
