/**
 * @module The server renderer of the widget (`renderWidgetHtml`), loaded from its build in
 * `dist/ssr/render-widget-html.js`: Vite builds it, since the widget imports its stylesheet as a string,
 * which Node cannot load from source. The build carries React and the widget inside, so the server needs
 * no browser package installed to use it.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RateTable } from '../contract/rate-table.ts'
import { packageRoot } from '../http/package-root.ts'

/** What the server passes; any other `<OfferWidget>` prop that is plain data (labels, themeVariables...) too. */
export interface RenderWidgetHtmlOptions {
  /** `createServerSearch(...)` gives `attach` and `rateTable`: pass `{ ...search.attach, rateTable }`. */
  attach: { uuid: string; accessToken: string; rateTable: RateTable }
  endpoint?: string
  /** `id` of the mount point. */
  id?: string
  /** CSP nonce of the shadow root's `<style>`. */
  nonce?: string
  theme?: 'light' | 'dark'
  form?: 'auto' | 'always' | 'never'
  /** `div` (default: `<div data-offer-widget>`) or `offer-widget` (the custom element). */
  tag?: 'div' | 'offer-widget'
  [prop: string]: unknown
}

export type RenderWidgetHtml = (options: RenderWidgetHtmlOptions) => string

export const WIDGET_RENDERER_FILE = join('dist', 'ssr', 'render-widget-html.js')

/** The built renderer under `root`, or `undefined` when it is not built. */
export async function loadWidgetRenderer(root: string): Promise<RenderWidgetHtml | undefined> {
  const file = join(root, WIDGET_RENDERER_FILE)
  if (!existsSync(file)) return undefined
  const module = (await import(pathToFileURL(file).href)) as { renderWidgetHtml: RenderWidgetHtml }
  return module.renderWidgetHtml
}

let loaded: Promise<RenderWidgetHtml | undefined> | undefined

/**
 * The script-tag widget for a search created on the server, as HTML with a declarative shadow root: put it
 * where the widget goes and keep the loader snippet, which hydrates it (README, "First offers in the HTML").
 */
export async function renderWidgetHtml(options: RenderWidgetHtmlOptions): Promise<string> {
  loaded ??= loadWidgetRenderer(packageRoot(import.meta.url))
  const render = await loaded
  if (!render) {
    loaded = undefined
    throw new Error(`renderWidgetHtml: ${WIDGET_RENDERER_FILE} is missing; run npm run build`)
  }
  return render(options)
}
