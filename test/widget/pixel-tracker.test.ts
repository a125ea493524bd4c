/**
 * @module docs/offer-search-api.md rule 4: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered."
 * The tracker's de-duplication (once per offer uuid and URL per page view) and the image request.
 */
import fc from 'fast-check'
import { describe, expect, test, vi } from 'vitest'
import { createPixelTracker, firePixelImage, pageTracker } from '../../src/widget/pixel-tracker.ts'
import { captureImages } from './support/widget-tests.ts'

describe('createPixelTracker', () => {
  test('fires each (offer, URL) pair once, whatever is repeated', () => {
    const fire = vi.fn()
    const tracker = createPixelTracker(fire)
    expect(
      tracker.track('o1', ['https://p.example/1', 'https://p.example/2', 'https://p.example/1']),
    ).toEqual(['https://p.example/1', 'https://p.example/2'])
    expect(tracker.track('o1', ['https://p.example/1'])).toEqual([])
    // The same URL on another offer is another impression.
    expect(tracker.track('o2', ['https://p.example/1'])).toEqual(['https://p.example/1'])
    expect(fire).toHaveBeenCalledTimes(3)
  })

  test('never fires a non-http(s) pixel', () => {
    const fire = vi.fn()
    createPixelTracker(fire).track('o1', ['javascript:alert(1)', 'data:image/gif;base64,AA', '/relative'])
    expect(fire).not.toHaveBeenCalled()
  })

  test('property: fired = the distinct (offer, http URL) pairs, whatever the call pattern', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('a', 'b', 'c'),
            fc.array(fc.constantFrom('https://p/1', 'https://p/2', 'x:y')),
          ),
        ),
        (calls) => {
          const fire = vi.fn()
          const tracker = createPixelTracker(fire)
          for (const [offer, urls] of calls) tracker.track(offer, urls)
          const expected = new Set(
            calls.flatMap(([offer, urls]) => urls.filter((u) => u !== 'x:y').map((u) => `${offer} ${u}`)),
          )
          expect(fire).toHaveBeenCalledTimes(expected.size)
        },
      ),
    )
  })

  test('the page tracker is one per page view', () => {
    expect(pageTracker()).toBe(pageTracker())
  })
})

describe('firePixelImage', () => {
  test('a plain no-CORS image request (no crossOrigin attribute) with strict-origin-when-cross-origin', () => {
    const created = captureImages()
    try {
      firePixelImage('https://p.example/1.gif')
    } finally {
      vi.unstubAllGlobals()
    }
    expect(created).toHaveLength(1)
    expect(created[0]?.src).toBe('https://p.example/1.gif')
    // A CORS request fails against trackers, which send no Access-Control-Allow-Origin.
    expect(created[0]?.crossOrigin).toBeNull()
    expect(created[0]?.hasAttribute('crossorigin')).toBe(false)
    expect(created[0]?.referrerPolicy).toBe('strict-origin-when-cross-origin')
  })
})
