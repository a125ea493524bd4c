/**
 * @module The publisher snippet run as a page runs it, then replayed by the bundle's queue code: both come
 * from the same source, so this is the contract between them.
 */
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type QueueEntry, replayQueue } from '../../src/embed/command-queue.ts'
import { OPTION_ATTRIBUTES } from '../../src/embed/data-attributes.ts'
import { EARLY_SEARCH_BLOCKERS, loaderScript, loaderSnippet } from '../../src/embed/loader-snippet.ts'
import type { MountHandle } from '../../src/embed/options.ts'

const SRC = 'https://offers.example.com/embed/offer-widget.0.1.0-abcdef1234.js'
const SRI = 'sha384-abc'

type Stub = {
  q: QueueEntry[]
  mount: (...args: unknown[]) => MountHandle
  ready: (cb: unknown) => void
  mountAll: () => void
  unmount: (target: unknown) => void
}

function runSnippet(src = SRC, integrity = SRI): void {
  // Indirect eval runs it in the global scope, where jsdom's window and document live.
  // biome-ignore lint/security/noGlobalEval: the snippet text, run exactly as a page runs it
  globalThis.eval(loaderScript({ src, integrity }))
}
const stub = () => (window as unknown as { OfferWidget: Stub }).OfferWidget

afterEach(() => {
  delete (window as { OfferWidget?: unknown }).OfferWidget
  document.head.innerHTML = ''
  document.body.innerHTML = ''
})

describe('loader snippet', () => {
  it('defines a command queue and adds the bundle once, async, with its integrity hash', () => {
    runSnippet()
    runSnippet()
    const scripts = document.querySelectorAll('script')
    expect(scripts).toHaveLength(1)
    const script = scripts[0] as HTMLScriptElement
    expect(script.src).toBe(SRC)
    expect(script.async).toBe(true)
    expect(script.getAttribute('integrity')).toBe(SRI)
    expect(script.crossOrigin).toBe('anonymous')
    expect(stub().q).toEqual([])
  })

  it("the stable form (the line's URL, no hash): adds the bundle once, without integrity or CORS mode", () => {
    const stable = 'https://offers.example.com/embed/v0.1/offer-widget.js'
    runSnippet(stable, '')
    runSnippet(stable, '')
    const scripts = document.querySelectorAll('script')
    expect(scripts).toHaveLength(1)
    expect((scripts[0] as HTMLScriptElement).src).toBe(stable)
    expect(scripts[0]?.hasAttribute('integrity')).toBe(false)
    expect(scripts[0]?.hasAttribute('crossorigin')).toBe(false)
  })

  it('reuses a script tag of the same bundle already on the page, with the same integrity hash', () => {
    const existing = document.createElement('script')
    existing.src = SRC
    existing.setAttribute('integrity', SRI)
    document.body.append(existing)
    runSnippet()
    expect(document.querySelectorAll('script')).toHaveLength(1)
  })

  it('adds its own tag, with its hash, beside one of the same src with another hash or none', () => {
    for (const integrity of [undefined, 'sha384-old']) {
      document.body.innerHTML = ''
      document.head.innerHTML = ''
      delete (window as { OfferWidget?: unknown }).OfferWidget
      const existing = document.createElement('script')
      existing.src = SRC
      if (integrity) existing.setAttribute('integrity', integrity)
      document.body.append(existing)
      runSnippet()
      const added = document.head.querySelector('script')
      expect(added?.getAttribute('integrity')).toBe(SRI)
    }
  })

  it('keeps its tag’s outcome on it, for loadOfferWidget', () => {
    runSnippet()
    const tag = document.querySelector('script') as HTMLScriptElement
    expect(tag.getAttribute('data-offer-widget-state')).toBeNull()
    tag.dispatchEvent(new Event('error'))
    expect(tag.getAttribute('data-offer-widget-state')).toBe('failed')
  })

  it('does nothing once the real API is loaded', () => {
    const api = { version: '0.1.0', mount: vi.fn() }
    ;(window as { OfferWidget?: unknown }).OfferWidget = api
    runSnippet()
    expect(stub()).toBe(api)
    expect(document.querySelectorAll('script')).toHaveLength(0)
  })

  it('escapes its arguments so no value can close the script element', () => {
    const text = loaderSnippet({ src: 'https://x.example/</script><script>alert(1)</script>.js' })
    expect(text.match(/<\/script>/g)).toHaveLength(1)
  })

  it('stays within its budget: 1 KiB gzip -9 with a real origin and integrity hash (issue 24)', () => {
    const script = loaderScript({
      src: 'https://offers.example.com/embed/offer-widget.0.1.0-139c4efe93.js',
      integrity: 'sha384-mU/RyQ9yIjo8zJKyqTIDKIhMO3e5WyfxTShP5ubMMv0m8JjADCsUSfio8Dc5rK69',
    })
    expect(gzipSync(script, { level: 9 }).length).toBeLessThanOrEqual(1024)
  })

  it('queues calls, and the bundle replays them in order onto the real API', () => {
    runSnippet()
    const el = document.createElement('div')
    const handle = stub().mount(el, { theme: 'dark' })
    handle.update({ theme: 'light' })
    const ready = vi.fn()
    stub().ready(ready)
    stub().mountAll()

    const real: MountHandle = { update: vi.fn(), unmount: vi.fn() }
    const api = {
      mount: vi.fn(() => real),
      mountAll: vi.fn(),
      unmount: vi.fn(),
      ready: vi.fn((cb) => cb('api')),
    }
    replayQueue(stub().q, api)

    expect(api.mount).toHaveBeenCalledWith(el, { theme: 'dark' })
    expect(real.update).toHaveBeenCalledWith({ theme: 'light' })
    expect(ready).toHaveBeenCalledWith('api')
    expect(api.mountAll).toHaveBeenCalledTimes(1)
    // The stand-in handle now goes straight to the real one.
    handle.unmount()
    expect(real.unmount).toHaveBeenCalledTimes(1)
  })

  it('keeps replaying after a failing command and says which failed', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const api = {
      mount: vi.fn(() => {
        throw new Error('boom')
      }),
      mountAll: vi.fn(),
      unmount: vi.fn(),
      ready: vi.fn(),
    }
    replayQueue(
      [
        ['mount', ['#nope'], {}],
        ['mountAll', []],
      ],
      api,
    )
    expect(api.mountAll).toHaveBeenCalledTimes(1)
    expect(error.mock.calls[0]?.[0]).toContain('queued mount() failed')
    error.mockRestore()
  })
})

describe('loader snippet: early search (issue 31)', () => {
  const sent = () => {
    const fetch = vi.fn((_url: string, _init: RequestInit) => new Promise<Response>(() => {}))
    vi.stubGlobal('fetch', fetch)
    return fetch
  }
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  const queued = () =>
    (window as unknown as { OfferWidget: { e: [string, string, Promise<Response>][] } }).OfferWidget.e

  it('posts the search of a ZIP-only mount point once, as the widget would, and queues it for the bundle', () => {
    const fetch = sent()
    document.body.innerHTML =
      '<div data-offer-widget data-endpoint="https://bff.example.com/" data-zip-code="94107-1234"></div>'
    runSnippet()
    runSnippet()
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    const body = '{"productTypes":["AutomobileInsurance"],"personalInformation":{"zipCode":"94107-1234"}}'
    expect(url).toBe('https://bff.example.com/api/offer-searches')
    expect(init).toMatchObject({
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-Offer-Widget': '0.1.0' },
    })
    expect(queued()).toEqual([[url, body, expect.any(Promise)]])
  })

  it("without data-endpoint, searches the origin the bundle comes from (the widget's default)", () => {
    const fetch = sent()
    document.body.innerHTML = '<div data-offer-widget data-zip-code="94107"></div>'
    runSnippet()
    expect(fetch.mock.calls[0]?.[0]).toBe('https://offers.example.com/api/offer-searches')
  })

  it("the stable form searches early too, once, at the origin of the line's URL", () => {
    const fetch = sent()
    document.body.innerHTML = '<div data-offer-widget data-zip-code="94107"></div>'
    runSnippet('https://offers.example.com/embed/v0.1/offer-widget.js', '')
    runSnippet('https://offers.example.com/embed/v0.1/offer-widget.js', '')
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch.mock.calls[0]?.[0]).toBe('https://offers.example.com/api/offer-searches')
  })

  it('sends nothing for a bad ZIP, an endpoint the widget would refuse, or another search attribute', () => {
    const fetch = sent()
    document.body.innerHTML = [
      '<div data-offer-widget data-zip-code="941"></div>',
      '<div data-offer-widget data-zip-code="94107" data-endpoint="javascript:alert(1)"></div>',
      // Other origins written as paths (the URL parser reads each as //evil.example): never posted to.
      '<div data-offer-widget data-zip-code="94107" data-endpoint="//evil.example"></div>',
      '<div data-offer-widget data-zip-code="94107" data-endpoint="/\\evil.example"></div>',
      '<div data-offer-widget data-zip-code="94107" data-endpoint="/&#9;/evil.example"></div>',
      '<div data-offer-widget data-zip-code="94107" data-is-military></div>',
      '<div data-offer-widget data-zip-code="94107" data-source="second-look"></div>',
      '<div data-offer-widget data-zip-code="94107" data-form="always"></div>',
      '<div data-zip-code="94107"></div>',
    ].join('')
    runSnippet()
    expect(fetch).not.toHaveBeenCalled()
    expect(queued()).toEqual([])
  })

  it('leaves to the widget every mount point whose search has more than the ZIP code', () => {
    // Every attribute that feeds the search body or changes where it goes, but the ZIP code itself.
    const searchAttributes = [...OPTION_ATTRIBUTES]
      .filter(
        ([, path]) =>
          (path.startsWith('search.') && path !== 'search.zipCode') || ['source', 'attach'].includes(path),
      )
      .map(([name]) => name)
    expect([...EARLY_SEARCH_BLOCKERS].sort()).toEqual(searchAttributes.sort())
  })
})
