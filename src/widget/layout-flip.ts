/**
 * @module Keeps content from jumping when offers arrive out of rank order (FLIP: first, last, invert,
 * play). A better-ranked offer is inserted above cards already on screen, which pushes them down; each
 * moved element is drawn back at its old place with a `transform` and eased to its new one. Chrome's
 * layout-shift score ignores movement made by transforms, and the visitor sees a slide instead of a jump.
 * Elements opt in with `data-ow-flip="<key>"`; they must not be nested in one another (a moved parent
 * already carries its children). DOM order never changes here: it stays rank order for assistive tech.
 */

export const FLIP_ATTRIBUTE = 'data-ow-flip'
/** Long enough to follow, short next to the 1 s poll. */
export const MOVE_MS = 300
/** A newcomer's entrance: short, and small enough that the card reads while it runs. */
export const ENTER_MS = 160
const ENTER_PX = 8
/** Reduced motion: how long a moved element stays at its old place before it snaps to the new one. */
export const SNAP_MS = 100

/** Each tracked element's top edge on screen, by key. */
export type Positions = Map<string, number>

function tracked(container: ParentNode): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(`[${FLIP_ATTRIBUTE}]`)]
}

/** Where the tracked elements are drawn now (a move still running included): read before React commits. */
export function readPositions(container: ParentNode): Positions {
  const positions: Positions = new Map()
  for (const element of tracked(container)) {
    positions.set(element.getAttribute(FLIP_ATTRIBUTE) ?? '', element.getBoundingClientRect().top)
  }
  return positions
}

/** The keyframes that draw an element `dy` px away from where layout put it and bring it home. */
function moveKeyframes(dy: number): Keyframe[] {
  return [{ transform: `translateY(${dy}px)` }, { transform: 'none' }]
}

/**
 * A newcomer's entrance: transform only, so it is drawn opaque and readable in the frame it is inserted,
 * and it rises the last few pixels into place.
 */
export const ENTER_KEYFRAMES: Keyframe[] = [{ transform: `translateY(${ENTER_PX}px)` }, { transform: 'none' }]

/** Held while the cards around a newcomer move: it stays drawn above them. */
export const ON_TOP_KEYFRAMES: Keyframe[] = [{ zIndex: 2 }, { zIndex: 2 }]

/** Moves still playing, by element: cancelled before measuring, so layout is read without their transform. */
const running = new WeakMap<Element, Animation>()

/**
 * After React committed: every tracked element that moved since `before` starts from its old place and
 * slides to its new one; a newcomer rises into place. With reduced motion nothing travels: a moved
 * element stays drawn at its old place for a moment and then snaps to its new one (still a transform, so
 * the page's layout-shift score is untouched), and a newcomer simply appears. Does nothing where the Web
 * Animations API is missing (jsdom, very old browsers).
 */
export function playFlip(container: ParentNode, before: Positions, reducedMotion: boolean): void {
  const elements = tracked(container).filter((element) => typeof element.animate === 'function')
  // Cancel first, then measure: the new place is where layout puts the element, without an old transform.
  for (const element of elements) running.get(element)?.cancel()
  const moving = elements.some((element) => {
    const was = before.get(element.getAttribute(FLIP_ATTRIBUTE) ?? '')
    return was !== undefined && Math.abs(was - element.getBoundingClientRect().top) >= 0.5
  })
  for (const element of elements) {
    const was = before.get(element.getAttribute(FLIP_ATTRIBUTE) ?? '')
    if (was === undefined) {
      if (!reducedMotion) element.animate(ENTER_KEYFRAMES, { duration: ENTER_MS, easing: 'ease-out' })
      // A newcomer is drawn above the cards still sliding away from its place, so it reads at once.
      if (moving) element.animate(ON_TOP_KEYFRAMES, { duration: reducedMotion ? SNAP_MS : MOVE_MS })
      continue
    }
    const dy = was - element.getBoundingClientRect().top
    if (Math.abs(dy) < 0.5) continue
    const timing: KeyframeAnimationOptions = reducedMotion
      ? { duration: SNAP_MS, easing: 'steps(1, end)' }
      : { duration: MOVE_MS, easing: 'ease-out' }
    running.set(element, element.animate(moveKeyframes(dy), timing))
  }
}

export function prefersReducedMotion(view: Window | null | undefined): boolean {
  return view?.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
}
