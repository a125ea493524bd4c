/**
 * @module layout-flip.ts in jsdom: layout is faked (each element's top is set by the test) and
 * `Element.animate` is recorded, so what is checked is which element is drawn from where, and how.
 */
import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  ENTER_KEYFRAMES,
  ENTER_MS,
  FLIP_ATTRIBUTE,
  MOVE_MS,
  ON_TOP_KEYFRAMES,
  playFlip,
  readPositions,
  SNAP_MS,
} from '../../src/widget/layout-flip.ts'

interface Played {
  key: string
  keyframes: Keyframe[]
  duration: number | undefined
  easing: string | undefined
  cancel: ReturnType<typeof vi.fn>
}

let played: Played[] = []
const tops = new Map<string, number>()

function container(keys: string[]): HTMLElement {
  const root = document.createElement('div')
  for (const key of keys) {
    const element = document.createElement('div')
    element.setAttribute(FLIP_ATTRIBUTE, key)
    element.getBoundingClientRect = () => ({ top: tops.get(key) ?? 0 }) as DOMRect
    element.animate = (keyframes, options) => {
      const cancel = vi.fn()
      played.push({
        key,
        keyframes: keyframes as Keyframe[],
        duration: (options as KeyframeAnimationOptions).duration as number,
        easing: (options as KeyframeAnimationOptions).easing,
        cancel,
      })
      return { cancel } as unknown as Animation
    }
    root.append(element)
  }
  return root
}

afterEach(() => {
  played = []
  tops.clear()
})

describe('playFlip', () => {
  test('an element pushed down starts where it was and slides home; a new one rises in by transform only; still ones stay', () => {
    tops.set('rank-3', 100).set('still', 20)
    const before = readPositions(container(['still', 'rank-3']))
    // A better-ranked offer arrives above rank 3 and takes 150 px.
    tops.set('rank-1', 100).set('rank-3', 250)
    playFlip(container(['still', 'rank-1', 'rank-3']), before, false)

    expect(played.map((p) => p.key)).toEqual(['rank-1', 'rank-1', 'rank-3'])
    const [enter, onTop, move] = played
    // Drawn above the card sliding away from its place for as long as that slide runs.
    expect(onTop?.keyframes).toEqual(ON_TOP_KEYFRAMES)
    expect(onTop?.duration).toBe(MOVE_MS)
    // Readable from its first frame: no opacity anywhere, short.
    expect(enter?.keyframes).toEqual(ENTER_KEYFRAMES)
    expect(enter?.keyframes.every((frame) => !('opacity' in frame))).toBe(true)
    expect(enter?.duration).toBe(ENTER_MS)
    expect(ENTER_MS).toBeLessThanOrEqual(200)
    expect(move?.keyframes).toEqual([{ transform: 'translateY(-150px)' }, { transform: 'none' }])
    expect(move?.duration).toBe(MOVE_MS)
  })

  test('with reduced motion a newcomer just appears and a moved element snaps (no travel, no fade)', () => {
    tops.set('rank-3', 100)
    const before = readPositions(container(['rank-3']))
    tops.set('rank-1', 100).set('rank-3', 250)
    playFlip(container(['rank-1', 'rank-3']), before, true)
    expect(played.map((p) => p.key)).toEqual(['rank-1', 'rank-3'])
    expect(played[0]?.keyframes).toEqual(ON_TOP_KEYFRAMES)
    expect(played[1]?.keyframes).toEqual([{ transform: 'translateY(-150px)' }, { transform: 'none' }])
    expect(played[1]?.easing).toBe('steps(1, end)')
    expect(played[1]?.duration).toBe(SNAP_MS)
  })

  test('a move still running is cancelled before the new place is measured', () => {
    tops.set('a', 0)
    const root = container(['a'])
    tops.set('a', 100)
    playFlip(root, new Map([['a', 0]]), false)
    const first = played[0]
    tops.set('a', 300)
    playFlip(root, new Map([['a', 40]]), false)
    expect(first?.cancel).toHaveBeenCalledTimes(1)
    expect(played[1]?.keyframes[0]).toEqual({ transform: 'translateY(-260px)' })
  })

  test('does nothing where the Web Animations API is missing', () => {
    const root = container(['a'])
    for (const element of root.children) (element as { animate?: unknown }).animate = undefined
    tops.set('a', 50)
    expect(() => playFlip(root, new Map([['a', 0]]), false)).not.toThrow()
    expect(played).toEqual([])
  })
})
