/**
 * @module Markup the server rendered for a mount point (`renderWidgetHtml`): a declarative shadow root holding
 * the widget's HTML in `.ow-embed` and, beside it, the options it was rendered with as JSON. `mount()` adopts
 * that root and hydrates the same tree instead of rendering a new one, so nothing flashes or moves.
 */
import { rateTableSchema } from '../contract/rate-table.ts'
import type { EmbedOptions } from './options.ts'

/** The `<script type="application/json">` carrying the options the server rendered with. */
const SSR_STATE_SELECTOR = 'script[data-ow-state]'
export const SSR_CONTAINER_CLASS = 'ow-embed'

export interface ServerRendered {
  shadow: ShadowRoot
  container: Element
  options: EmbedOptions
}

/** The server's markup on `element`, or `undefined` (none, another script's root, or unreadable state). */
export function readServerRendered(element: Element): ServerRendered | undefined {
  const shadow = element.shadowRoot
  const state = shadow?.querySelector(SSR_STATE_SELECTOR)
  const container = shadow?.querySelector(`.${SSR_CONTAINER_CLASS}`)
  if (!shadow || !state || !container) return undefined
  try {
    const options = JSON.parse(state.textContent ?? '') as EmbedOptions
    const attach = options.attach
    // The rate table drives what hydration renders: it must be one the widget would accept from the BFF.
    if (
      !attach ||
      typeof attach.accessToken !== 'string' ||
      !rateTableSchema.safeParse(attach.rateTable).success
    )
      return undefined
    return { shadow, container, options }
  } catch {
    return undefined
  }
}
