/**
 * @module `renderWidgetHtml(options)`: the script-tag widget for a search created on the server, as HTML a
 * page can carry: a mount point with a declarative shadow root (`<template shadowrootmode="open">`) holding
 * the widget's stylesheet, the widget rendered by React's server renderer (the same component the bundle
 * runs), its first offers' impression pixels as image tags, and the options as JSON for the bundle to adopt
 * and hydrate. With the bundle blocked the offers still show and their pixels still fire.
 */
import { renderToString } from 'react-dom/server'
import type { RateTable } from '../contract/rate-table.ts'
import type { EmbedOptions } from '../embed/options.ts'
import { SSR_CONTAINER_CLASS } from '../embed/server-rendered.ts'
import { SHADOW_CSS } from '../embed/shadow-styles.ts'
import { OfferWidget } from '../widget/OfferWidget.tsx'

type Callback = 'onSearchCreated' | 'onOffersShown' | 'onOfferClick' | 'onComplete' | 'onError'

export interface RenderWidgetHtmlOptions extends Omit<EmbedOptions, Callback | 'attach'> {
  /** `createServerSearch(...)` gives `{ uuid, accessToken }` as `attach` and the `rateTable`. */
  attach: { uuid: string; accessToken: string; rateTable: RateTable }
  /** `id` of the mount point. */
  id?: string
  /** CSP nonce of the shadow root's `<style>` (needed under a `style-src` without `'unsafe-inline'`). */
  nonce?: string
  /**
   * The mount point: `div` (default, `<div data-offer-widget>` for the loader snippet) or `offer-widget`
   * (the custom element, which the bundle defines and which hydrates the same shadow root in place).
   */
  tag?: 'div' | 'offer-widget'
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' }
const escapeAttribute = (value: string) => value.replace(/[&"<>]/g, (ch) => ATTRIBUTE_ESCAPES[ch] as string)
/** JSON inside `<script>`: no `<` can close the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

export function renderWidgetHtml(options: RenderWidgetHtmlOptions): string {
  const { id, nonce, tag = 'div', ...widget } = options
  const html = renderToString(<OfferWidget {...widget} injectStyles={false} />)
  const idAttribute = id ? ` id="${escapeAttribute(id)}"` : ''
  const nonceAttribute = nonce ? ` nonce="${escapeAttribute(nonce)}"` : ''
  return (
    `${tag === 'offer-widget' ? '<offer-widget' : '<div data-offer-widget'}${idAttribute}><template shadowrootmode="open">` +
    `<style${nonceAttribute}>${SHADOW_CSS.replace(/<\//g, '<\\/')}</style>` +
    `<div class="${SSR_CONTAINER_CLASS}">${html}</div>` +
    `<script type="application/json" data-ow-state>${scriptJson(widget)}</script>` +
    `</template></${tag === 'offer-widget' ? 'offer-widget' : 'div'}>`
  )
}
