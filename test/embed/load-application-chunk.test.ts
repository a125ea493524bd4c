/**
 * @module The script tag's loader of its loan-application chunk (src/embed/load-application-chunk.ts), the
 * stripe-js way: one `<script>` with the build's SRI hash from `/embed/` on the bundle's origin, one memoized
 * promise that the chunk's hand-over resolves, the hand-over global gone once used, and a failure forgotten
 * so the next try loads again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { APPLICATION_HOST } from '../../src/embed/application-host.ts'

const CHUNK = { file: 'offer-widget-application.0.1.0-0123456789.js', integrity: 'sha384-abc' }
type Host = { react: unknown; jsx: unknown; ready(flow: unknown): void }

async function freshLoader() {
  vi.resetModules()
  ;(globalThis as Record<string, unknown>).__OFFER_WIDGET_APPLICATION__ = CHUNK
  return import('../../src/embed/load-application-chunk.ts')
}

const scripts = () => [...document.head.querySelectorAll<HTMLScriptElement>('script')]
const host = () => (window as unknown as Record<string, Host | undefined>)[APPLICATION_HOST]

beforeEach(() => {
  for (const script of scripts()) script.remove()
})
afterEach(() => {
  delete (window as unknown as Record<string, unknown>)[APPLICATION_HOST]
})

describe('loadApplication (script tag)', () => {
  it('adds one script from /embed/ with the SRI hash, and resolves to what the chunk hands over', async () => {
    const { loadApplication } = await freshLoader()
    const first = loadApplication()
    const second = loadApplication()
    expect(second).toBe(first)
    expect(scripts()).toHaveLength(1)
    const [script] = scripts()
    expect(script?.src).toBe(new URL(`/embed/${CHUNK.file}`, location.href).href)
    expect(script?.integrity).toBe(CHUNK.integrity)
    expect(script?.crossOrigin).toBe('anonymous')
    // The chunk runs: it finds React and the JSX runtime of the bundle, and hands its component over.
    expect(host()?.react).toBeTruthy()
    expect(host()?.jsx).toBeTruthy()
    const flow = () => null
    host()?.ready(flow)
    await expect(first).resolves.toEqual({ ApplicationFlow: flow })
    expect(host()).toBeUndefined()
  })

  it('rejects when the script fails, removes it, and loads again on the next call', async () => {
    const { loadApplication } = await freshLoader()
    const failed = loadApplication()
    scripts()[0]?.dispatchEvent(new Event('error'))
    await expect(failed).rejects.toThrow(/did not load/)
    expect(scripts()).toHaveLength(0)
    const again = loadApplication()
    expect(again).not.toBe(failed)
    expect(scripts()).toHaveLength(1)
    host()?.ready(() => null)
    await expect(again).resolves.toHaveProperty('ApplicationFlow')
  })
})
