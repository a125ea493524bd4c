/**
 * @module The widget's CSS inside a shadow root: one constructable stylesheet per document, adopted by
 * every mount (no `<style>` element, so a strict `style-src` CSP allows it). Where constructable sheets
 * are missing (old browsers, jsdom) a `<style>` in the shadow root is the fallback, with the page's nonce.
 */
import widgetCss from '../widget/styles.css?inline'

/**
 * The shadow tree's own reset. `all: initial` on the wrapper stops inherited properties (font, color,
 * letter-spacing, text-transform...) from leaking in from the host page; `.ow-root` then sets its own.
 */
const EMBED_CSS = `:host{display:block}.ow-embed{all:initial;display:block}`
export const SHADOW_CSS = `${EMBED_CSS}\n${widgetCss}`

const sheets = new WeakMap<Document, CSSStyleSheet>()

function constructable(doc: Document): CSSStyleSheet | undefined {
  const view = doc.defaultView
  if (!view || !('adoptedStyleSheets' in doc) || typeof view.CSSStyleSheet !== 'function') return undefined
  let sheet = sheets.get(doc)
  if (!sheet) {
    try {
      sheet = new view.CSSStyleSheet()
      sheet.replaceSync(SHADOW_CSS)
    } catch {
      return undefined
    }
    sheets.set(doc, sheet)
  }
  return sheet
}

/** Styles the shadow root; returns the undo. */
export function adoptStyles(shadow: ShadowRoot, nonce?: string): () => void {
  const doc = shadow.ownerDocument
  const sheet = constructable(doc)
  if (sheet && Array.isArray(shadow.adoptedStyleSheets)) {
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet]
    return () => {
      shadow.adoptedStyleSheets = shadow.adoptedStyleSheets.filter((s) => s !== sheet)
    }
  }
  const style = doc.createElement('style')
  if (nonce) style.nonce = nonce
  style.textContent = SHADOW_CSS
  shadow.prepend(style)
  return () => style.remove()
}
