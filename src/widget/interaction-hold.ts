/**
 * @module Whether the visitor holds the offer list still: a press (pointer, finger or pen) inside the
 * widget, until it ends and for `HOLD_MS` after; a key press or a mouse moving inside it, for `HOLD_MS`
 * after. A resting pointer, focus and hovering do not hold: a list held by them could end a search out of
 * rank order (docs/decisions/0047-rank-order-still-list.md).
 */
import { type RefObject, useEffect, useState } from 'react'

/** How long after the visitor's last press, key or mouse move the list stays still. */
const HOLD_MS = 600

export function useInteractionHold(rootRef: RefObject<HTMLElement | null>): boolean {
  const [held, setHeld] = useState(false)
  useEffect(() => {
    const root = rootRef.current
    const view = root?.ownerDocument.defaultView
    if (!root || !view) return
    let pressing = false
    let until = 0
    // Armed while held: a mouse move (dozens a second) only pushes `until` on, with no state update.
    let timer: ReturnType<typeof setTimeout> | undefined
    const release = () => {
      timer = undefined
      if (pressing) return
      const left = until - Date.now()
      if (left > 0) timer = setTimeout(release, left)
      else setHeld(false)
    }
    const hold = () => {
      until = Date.now() + HOLD_MS
      if (timer !== undefined) return
      setHeld(true)
      timer = setTimeout(release, HOLD_MS)
    }
    const onDown = () => {
      pressing = true
      hold()
    }
    // The press may end anywhere on the page (a finger that slid off the widget, a scroll that took it).
    const onUp = () => {
      if (!pressing) return
      pressing = false
      hold()
    }
    const onMove = (event: PointerEvent) => {
      if (event.pointerType === 'mouse') hold()
    }
    root.addEventListener('pointerdown', onDown)
    root.addEventListener('keydown', hold)
    root.addEventListener('pointermove', onMove)
    view.addEventListener('pointerup', onUp, true)
    view.addEventListener('pointercancel', onUp, true)
    return () => {
      root.removeEventListener('pointerdown', onDown)
      root.removeEventListener('keydown', hold)
      root.removeEventListener('pointermove', onMove)
      view.removeEventListener('pointerup', onUp, true)
      view.removeEventListener('pointercancel', onUp, true)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [rootRef])
  return held
}
