/** @module Static cache headers: hashed and versioned assets immutable, HTML no-cache, the rest short. */
import { describe, expect, it } from 'vitest'
import { cacheControlFor, IMMUTABLE, REVALIDATE, SHORT } from '../../src/server/cache-control.ts'

describe('cacheControlFor', () => {
  it('marks content-hashed and versioned assets immutable', () => {
    expect(cacheControlFor('/assets/index-B0_nLMC8.js')).toBe(IMMUTABLE)
    expect(cacheControlFor('/dist/widget/1.4.0/offer-widget.js')).toBe(IMMUTABLE)
  })
  it('revalidates HTML every time', () => {
    expect(cacheControlFor('/index.html')).toBe(REVALIDATE)
    expect(cacheControlFor('/demo.html')).toBe(REVALIDATE)
  })
  it('caches unversioned files briefly', () => {
    expect(cacheControlFor('/demo.css')).toBe(SHORT)
    expect(cacheControlFor('/dist/embed/offer-widget.js')).toBe(SHORT)
  })
})
