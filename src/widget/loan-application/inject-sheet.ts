/**
 * @module Delivers the loan application's CSS next to where it renders, once per root. In a shadow root (the
 * element and the script tag) it is adopted as a constructable sheet, as the embed adopts the main one, so a
 * strict `style-src` CSP allows it; elsewhere (and where constructable sheets are missing) a `<style>` with
 * the nonce. Its own marker: the widget's main sheet (../inject-styles.ts) is found by its marker, and the two
 * must not hide each other. After the main sheet, so its rules win over main ones of equal specificity.
 */
import { WIDGET_VERSION } from '../version.ts'

const MARKER = 'data-offer-widget-loan-styles'
const MAIN_MARKER = 'data-offer-widget-styles'

const sheets = new WeakMap<Document, CSSStyleSheet>()

function constructable(doc: Document, css: string): CSSStyleSheet | undefined {
  const view = doc.defaultView
  if (!view || typeof view.CSSStyleSheet !== 'function') return undefined
  let sheet = sheets.get(doc)
  if (!sheet) {
    try {
      sheet = new view.CSSStyleSheet()
      sheet.replaceSync(css)
    } catch {
      return undefined
    }
    sheets.set(doc, sheet)
  }
  return sheet
}

export function injectSheet(node: Node, css: string, nonce?: string): void {
  const root = node.getRootNode()
  const doc = node.ownerDocument
  if (!doc) return
  // A ShadowRoot is a DocumentFragment (nodeType 11) with a host; anything else styles the document.
  const shadow = root.nodeType === 11 && 'host' in root ? (root as ShadowRoot) : undefined
  if (shadow && Array.isArray(shadow.adoptedStyleSheets)) {
    const sheet = constructable(doc, css)
    if (sheet) {
      if (!shadow.adoptedStyleSheets.includes(sheet))
        shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet]
      return
    }
  }
  const container: ParentNode = shadow ?? doc.head
  if (container.querySelector(`style[${MARKER}]`)) return
  const style = doc.createElement('style')
  style.setAttribute(MARKER, WIDGET_VERSION)
  if (nonce) style.nonce = nonce
  style.textContent = css
  const main = container.querySelector(`style[${MAIN_MARKER}]`)
  if (main) main.after(style)
  else container.prepend(style)
}
