import { describe, expect, it } from 'vitest'
import { scaleOf, ZOOM_STEPS, zoomOf, zoomStep } from '../../src/playground/zoom.ts'

describe('preview zoom', () => {
  it('reads 50 to 200 % and fit from the link; 100 % is no zoom', () => {
    expect(zoomOf('50')).toBe(50)
    expect(zoomOf('200')).toBe(200)
    expect(zoomOf('fit')).toBe('fit')
    expect(zoomOf('100')).toBeUndefined()
    expect(zoomOf('49')).toBeUndefined()
    expect(zoomOf(null)).toBeUndefined()
  })

  it('steps through the levels from the scale shown, stopping at the ends', () => {
    expect(zoomStep(1, 1)).toBe(110)
    expect(zoomStep(1, -1)).toBe(90)
    expect(zoomStep(2, 1)).toBe(200)
    expect(zoomStep(0.5, -1)).toBe(50)
    // Under Fit the scale is anything: the next level past it.
    expect(zoomStep(0.42, 1)).toBe(50)
    expect(zoomStep(0.8, -1)).toBe(75)
    expect(ZOOM_STEPS).toContain(100)
  })

  it('fit shrinks a frame wider than the pane, and never enlarges one', () => {
    expect(scaleOf('fit', 1280, 640)).toBe(0.5)
    expect(scaleOf('fit', 360, 900)).toBe(1)
    expect(scaleOf('fit', undefined, 900)).toBe(1)
    expect(scaleOf(150, 360, 900)).toBe(1.5)
    expect(scaleOf(undefined, 1280, 300)).toBe(1)
  })
})
