/**
 * @module `mount(element, options)`: the widget in an open Shadow DOM on any element, the way the script
 * tag mounts it. The shadow root keeps page CSS out and the widget's CSS in; each mount renders its own
 * `<OfferWidget>` (which owns a private QueryClient). Callbacks are also dispatched as bubbling DOM events
 * on the element, for pages that configure the widget with data attributes only.
 */
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { ApplicationGate } from '../widget/ApplicationGate.tsx'
import { describeElement } from './describe-element.ts'
import { fitSlot } from './fit-slot.ts'
import { EMBED_EVENTS, type EmbedCallback, type EmbedOptions, type MountHandle } from './options.ts'
import { readServerRendered } from './server-rendered.ts'
import { adoptStyles } from './shadow-styles.ts'

interface Mounted {
  handle: MountHandle
}

const mounted = new WeakMap<Element, Mounted>()
/** Shadow roots this module attached: reused on a later mount (a root cannot be detached). */
const ownRoots = new WeakSet<ShadowRoot>()

export function isMounted(element: Element): boolean {
  return mounted.has(element)
}

function resolveTarget(target: Element | string): Element {
  if (typeof target !== 'string') return target
  const found = document.querySelector(target)
  if (!found) throw new Error(`offer-widget: mount("${target}") found no element; check the selector`)
  return found
}

function shadowOf(element: Element): ShadowRoot {
  if (element.shadowRoot) {
    if (ownRoots.has(element.shadowRoot)) return element.shadowRoot
    throw new Error(
      `offer-widget: ${describeElement(element)} already has a shadow root of another script; mount on an empty <div>`,
    )
  }
  try {
    const shadow = element.attachShadow({ mode: 'open' })
    ownRoots.add(shadow)
    return shadow
  } catch (cause) {
    throw new Error(
      `offer-widget: cannot mount on ${describeElement(element)} (${String(cause)}); mount on a <div> or <section>`,
    )
  }
}

/**
 * Wraps each callback so it also emits its DOM event (`events`' name for it: the mount point's by default,
 * the element's own for `<offer-widget>`) on the host element.
 */
export function withEvents(
  element: Element,
  options: EmbedOptions,
  events: Record<EmbedCallback, string> = EMBED_EVENTS,
): EmbedOptions {
  const wrapped: EmbedOptions = { ...options }
  for (const [name, type] of Object.entries(events) as [EmbedCallback, string][]) {
    const callback = options[name] as ((detail: unknown) => void) | undefined
    ;(wrapped as Record<string, unknown>)[name] = (detail: unknown) => {
      element.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }))
      callback?.(detail)
    }
  }
  return wrapped
}

export function mount(target: Element | string, options: EmbedOptions = {}): MountHandle {
  const element = resolveTarget(target)
  const existing = mounted.get(element)
  if (existing) {
    console.warn(
      `offer-widget: ${describeElement(element)} already has a widget; this mount() did nothing. ` +
        'Call update(options) on the handle the first mount() returned, or unmount() it first.',
    )
    return existing.handle
  }
  // Server-rendered markup is adopted as it is (its own <style> included) and hydrated with the options it
  // was rendered with, so the first frame is the server's and nothing is fetched or fired twice.
  const rendered = readServerRendered(element)
  if (rendered) ownRoots.add(rendered.shadow)
  const shadow = rendered?.shadow ?? shadowOf(element)
  const removeStyles = rendered ? () => {} : adoptStyles(shadow, options.nonce)
  const container = rendered?.container ?? element.ownerDocument.createElement('div')
  if (!rendered) {
    container.className = 'ow-embed'
    shadow.append(container)
  }
  let current = rendered ? { ...options, ...rendered.options } : options
  const widget = () => <ApplicationGate {...withEvents(element, current)} injectStyles={false} />
  let root: Root | undefined = rendered ? hydrateRoot(container, widget()) : createRoot(container)

  const render = () => root?.render(widget())
  const stopFitting = element instanceof HTMLElement ? fitSlot(element, shadow) : () => {}

  const handle: MountHandle = {
    update(next) {
      if (!root) {
        console.warn(`offer-widget: update() on ${describeElement(element)} after unmount() does nothing`)
        return
      }
      current = { ...current, ...next }
      render()
    },
    unmount() {
      if (!root) return
      root.unmount()
      root = undefined
      stopFitting()
      container.remove()
      removeStyles()
      mounted.delete(element)
    },
  }
  mounted.set(element, { handle })
  if (!rendered) render()
  return handle
}

/** Unmounts the widget on an element, if any; true when there was one. */
export function unmount(target: Element | string): boolean {
  const element = resolveTarget(target)
  const entry = mounted.get(element)
  entry?.handle.unmount()
  return entry !== undefined
}
