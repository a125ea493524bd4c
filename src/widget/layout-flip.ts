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
export const FADE_MS = 200

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

/**
 * The keyframes that draw an element `dy` px away from where layout put it and bring it home. With reduced
 * motion nothing travels: the element fades out where it was and fades in where it now is.
 */
export function moveKeyframes(dy: number, reducedMotion: boolean): Keyframe[] {
  const away = `translateY(${dy}px)`
  if (!reducedMotion) return [{ transform: away }, { transform: 'none' }]
  return [
    { transform: away, opacity: 1 },
    { transform: away, opacity: 0, offset: 0.5 },
    { transform: 'none', opacity: 0, offset: 0.5 },
    { transform: 'none', opacity: 1 },
  ]
}

/** Moves still playing, by element: cancelled before measuring, so layout is read without their transform. */
const running = new WeakMap<Element, Animation>()

/**
 * After React committed: every tracked element that moved since `before` starts from its old place; new
 * ones fade in. Does nothing where the Web Animations API is missing (jsdom, very old browsers).
 */
export function playFlip(container: ParentNode, before: Positions, reducedMotion: boolean): void {
  const elements = tracked(container).filter((element) => typeof element.animate === 'function')
  // Cancel first, then measure: the new place is where layout puts the element, without an old transform.
  for (const element of elements) running.get(element)?.cancel()
  const moves = elements.map((element) => {
    const was = before.get(element.getAttribute(FLIP_ATTRIBUTE) ?? '')
    return { element, dy: was === undefined ? undefined : was - element.getBoundingClientRect().top }
  })
  // A newcomer appears where a moving element is still drawn: it waits, invisible, until the move ends,
  // so two cards never overlap.
  const delay = moves.some(({ dy }) => dy !== undefined && Math.abs(dy) >= 0.5) ? MOVE_MS : 0
  for (const { element, dy } of moves) {
    if (dy === undefined) {
      // Not kept in `running`: a later update must not cut a fade short (the card would pop in mid-move).
      element.animate([{ opacity: 0 }, { opacity: 1 }], { duration: FADE_MS, delay, fill: 'backwards' })
    } else if (Math.abs(dy) >= 0.5) {
      const keyframes = moveKeyframes(dy, reducedMotion)
      running.set(element, element.animate(keyframes, { duration: MOVE_MS, easing: 'ease-out' }))
    }
  }
}

export function prefersReducedMotion(view: Window | null | undefined): boolean {
  return view?.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
}
