/**
 * @module Gives back the blank part of the widget's reserved place without moving anything a visitor sees.
 * The snippet reserves the tallest results from the first paint (publisher-snippet.ts), so nothing below
 * the widget moves while offers arrive. In a state that is final for now (results complete, no offers, an
 * error, the form), the place shrinks to the widget's content, but never above the bottom of the viewport:
 * what follows the widget only moves while it is out of sight, so no layout shift is scored. Scrolling up
 * later lets it shrink further. A new search (a submit, "Try again") gives the reservation back at once,
 * within the 500 ms after the visitor's input that layout-shift scoring leaves out
 * (docs/guides/script-tag.md#reserve-the-widgets-height).
 */

/** Widget states that wait on the visitor, not on the network. */
const SETTLED = new Set(['complete', 'error', 'form'])

export function fitSlot(host: HTMLElement, shadow: ShadowRoot): () => void {
  const view = host.ownerDocument.defaultView
  if (!view || typeof ResizeObserver === 'undefined') return () => {}
  let scheduled = 0
  const fit = () => {
    scheduled = 0
    const root = shadow.querySelector<HTMLElement>('.ow-root')
    const status = root?.dataset.owStatus
    if (!root || !status) return
    if (!SETTLED.has(status)) {
      host.style.removeProperty('min-height')
      return
    }
    const place = host.getBoundingClientRect()
    const content = root.getBoundingClientRect().bottom - place.top
    const floor = Math.ceil(Math.max(content, view.innerHeight - place.top))
    if (floor < place.height - 0.5) host.style.minHeight = `${floor}px`
  }
  const schedule = () => {
    scheduled ||= view.requestAnimationFrame(fit)
  }
  const mutations = new MutationObserver(schedule)
  mutations.observe(shadow, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-ow-status'],
  })
  // The host grows with its content; the content's own box tells when it shrinks (a card collapsed).
  const sizes = new ResizeObserver(schedule)
  sizes.observe(host)
  for (const child of shadow.children) sizes.observe(child)
  view.addEventListener('scroll', schedule, { passive: true })
  view.addEventListener('resize', schedule, { passive: true })
  schedule()
  return () => {
    mutations.disconnect()
    sizes.disconnect()
    view.removeEventListener('scroll', schedule)
    view.removeEventListener('resize', schedule)
    if (scheduled) view.cancelAnimationFrame(scheduled)
    host.style.removeProperty('min-height')
  }
}
