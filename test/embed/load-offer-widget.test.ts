/**
 * @module loadOfferWidget like stripe-js: one memoized promise, cleared on failure, reuses a script tag, but
 * only one with the integrity asked for, and always settles, even on a tag that failed or loaded before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loaderScript } from '../../src/embed/loader-snippet.ts'

const SRC = 'https://offers.example.com/embed/offer-widget.0.1.0-abcdef1234.js'

async function fresh() {
  vi.resetModules()
  return (await import('../../src/embed/load-offer-widget.ts')).loadOfferWidget
}

beforeEach(() => {
  document.head.innerHTML = ''
  delete (window as { OfferWidget?: unknown }).OfferWidget
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

/** The promise's outcome so far, without waiting for it: `pending` if it has not settled. */
async function outcome(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let result: 'pending' | 'resolved' | 'rejected' = 'pending'
  promise.then(
    () => {
      result = 'resolved'
    },
    () => {
      result = 'rejected'
    },
  )
  await vi.advanceTimersByTimeAsync(0)
  return result
}

function tagOnPage(attributes: Record<string, string> = {}): HTMLScriptElement {
  const tag = document.createElement('script')
  tag.src = SRC
  for (const [name, value] of Object.entries(attributes)) tag.setAttribute(name, value)
  document.head.append(tag)
  return tag
}

describe('loadOfferWidget', () => {
  it('adds one script however often it is called, and resolves to the API when it loads', async () => {
    const load = await fresh()
    const first = load({ src: SRC, integrity: 'sha384-x' })
    const second = load({ src: SRC })
    expect(second).toBe(first)
    const scripts = document.head.querySelectorAll('script')
    expect(scripts).toHaveLength(1)
    expect(scripts[0]?.getAttribute('integrity')).toBe('sha384-x')
    const api = { version: '0.1.0' }
    ;(window as { OfferWidget?: unknown }).OfferWidget = api
    scripts[0]?.dispatchEvent(new Event('load'))
    await expect(first).resolves.toBe(api)
  })

  it('clears the memo on failure so a retry adds a fresh script', async () => {
    const load = await fresh()
    const first = load({ src: SRC })
    document.head.querySelector('script')?.dispatchEvent(new Event('error'))
    await expect(first).rejects.toThrow(`could not load ${SRC}`)
    expect(document.head.querySelectorAll('script')).toHaveLength(0)
    const retry = load({ src: SRC })
    expect(retry).not.toBe(first)
    expect(document.head.querySelectorAll('script')).toHaveLength(1)
  })

  it('rejects when the script loads but is not the bundle', async () => {
    const load = await fresh()
    const first = load({ src: SRC })
    document.head.querySelector('script')?.dispatchEvent(new Event('load'))
    await expect(first).rejects.toThrow('defined no window.OfferWidget')
  })

  it('reuses a script tag already on the page', async () => {
    const existing = document.createElement('script')
    existing.src = SRC
    document.head.append(existing)
    const load = await fresh()
    const pending = load({ src: SRC })
    expect(document.head.querySelectorAll('script')).toHaveLength(1)
    ;(window as { OfferWidget?: unknown }).OfferWidget = { version: '0.1.0' }
    existing.dispatchEvent(new Event('load'))
    await expect(pending).resolves.toMatchObject({ version: '0.1.0' })
  })

  it('resolves at once when the bundle is already loaded', async () => {
    ;(window as { OfferWidget?: unknown }).OfferWidget = { version: '0.1.0' }
    const load = await fresh()
    await expect(load({ src: SRC })).resolves.toMatchObject({ version: '0.1.0' })
    expect(document.head.querySelectorAll('script')).toHaveLength(0)
  })

  it('resolves to null on the server', async () => {
    const load = await fresh()
    vi.stubGlobal('window', undefined)
    await expect(load({ src: SRC })).resolves.toBeNull()
  })

  it('rejects, naming both hashes, when the tag on the page has another integrity; adds no second tag', async () => {
    vi.useFakeTimers()
    const other = tagOnPage({ integrity: 'sha384-old' })
    const load = await fresh()
    await expect(load({ src: SRC, integrity: 'sha384-new' })).rejects.toThrow(
      /already on the page has integrity "sha384-old", not the "sha384-new" asked for/,
    )
    expect(document.head.querySelectorAll('script')).toHaveLength(1)
    other.remove()
    // The memo was cleared: with the tag gone, a retry adds its own, with its hash.
    const retry = load({ src: SRC, integrity: 'sha384-new' })
    expect(document.head.querySelector('script')?.getAttribute('integrity')).toBe('sha384-new')
    expect(await outcome(retry)).toBe('pending')
  })

  it('reuses a tag without a hash when none is asked for', async () => {
    vi.useFakeTimers()
    const existing = tagOnPage({ integrity: 'sha384-x' })
    const load = await fresh()
    const pending = load({ src: SRC })
    expect(document.head.querySelectorAll('script')).toHaveLength(1)
    ;(window as { OfferWidget?: unknown }).OfferWidget = { version: '0.1.0' }
    existing.dispatchEvent(new Event('load'))
    await expect(pending).resolves.toMatchObject({ version: '0.1.0' })
  })

  it('rejects at once on a tag the snippet saw fail, removes it, and a retry adds a fresh one', async () => {
    vi.useFakeTimers()
    // biome-ignore lint/security/noGlobalEval: the snippet text, run exactly as a page runs it
    globalThis.eval(loaderScript({ src: SRC, integrity: 'sha384-x' }))
    document.head.querySelector('script')?.dispatchEvent(new Event('error'))
    delete (window as { OfferWidget?: unknown }).OfferWidget
    const load = await fresh()
    const first = load({ src: SRC, integrity: 'sha384-x' })
    expect(await outcome(first)).toBe('rejected')
    await expect(first).rejects.toThrow(`could not load ${SRC}`)
    expect(document.head.querySelectorAll('script')).toHaveLength(0)
    load({ src: SRC, integrity: 'sha384-x' })
    expect(document.head.querySelectorAll('script')).toHaveLength(1)
  })

  it('rejects at once on a tag that already loaded but defined no window.OfferWidget', async () => {
    vi.useFakeTimers()
    tagOnPage({ 'data-offer-widget-state': 'loaded' })
    const load = await fresh()
    const first = load({ src: SRC })
    expect(await outcome(first)).toBe('rejected')
    await expect(first).rejects.toThrow('defined no window.OfferWidget')
  })

  it('gives up on a tag that fires nothing within 30 s, and a retry waits on it again', async () => {
    vi.useFakeTimers()
    const silent = tagOnPage()
    const load = await fresh()
    const first = load({ src: SRC })
    await vi.advanceTimersByTimeAsync(29_999)
    expect(await outcome(first)).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    await expect(first).rejects.toThrow(`${SRC} neither loaded nor failed within 30 s`)
    const retry = load({ src: SRC })
    expect(retry).not.toBe(first)
    ;(window as { OfferWidget?: unknown }).OfferWidget = { version: '0.1.0' }
    silent.dispatchEvent(new Event('load'))
    await expect(retry).resolves.toMatchObject({ version: '0.1.0' })
  })
})
