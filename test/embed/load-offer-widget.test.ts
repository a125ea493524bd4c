/** @module loadOfferWidget like stripe-js: one memoized promise, cleared on failure, reuses a script tag. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const SRC = 'https://offers.example.com/embed/offer-widget.0.1.0-abcdef1234.js'

async function fresh() {
  vi.resetModules()
  return (await import('../../src/embed/load-offer-widget.ts')).loadOfferWidget
}

beforeEach(() => {
  document.head.innerHTML = ''
  delete (window as { OfferWidget?: unknown }).OfferWidget
})
afterEach(() => vi.unstubAllGlobals())

describe('loadOfferWidget', () => {
  it('adds one script however often it is called, and resolves to the API when it loads', async () => {
    const load = await fresh()
    const first = load({ src: SRC, integrity: 'sha384-x' })
    const second = load({ src: SRC })
    expect(second).toBe(first)
    const scripts = document.head.querySelectorAll('script')
    expect(scripts).toHaveLength(1)
    expect(scripts[0]?.integrity).toBe('sha384-x')
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
})
