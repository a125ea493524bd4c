/**
 * @module Delivers the widget's CSS next to where it renders: `document.head`, or the shadow root it
 * lives in. Once per root. The script-tag embed turns this off and adopts the sheet itself.
 */
import { WIDGET_VERSION } from './version.ts'

const MARKER = 'data-offer-widget-styles'

export function injectStyles(node: Node, css: string, nonce?: string): void {
  const root = node.getRootNode()
  const doc = node.ownerDocument
  if (!doc) return
  // A ShadowRoot is a DocumentFragment (nodeType 11) with a host; anything else styles the document.
  const container: ParentNode = root.nodeType === 11 && 'host' in root ? (root as ShadowRoot) : doc.head
  if (container.querySelector(`style[${MARKER}]`)) return
  const style = doc.createElement('style')
  style.setAttribute(MARKER, WIDGET_VERSION)
  if (nonce) style.nonce = nonce
  style.textContent = css
  // First in <head>, so the page's own rules of equal specificity override the widget's defaults.
  container.prepend(style)
}
