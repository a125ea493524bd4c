/**
 * @module The preview frame's inspection tools, as Storybook's outline and measure addons: "Outline" draws an
 * outline round every element of the page and of the widget's shadow root; "Measure" shows, for the element
 * under the pointer, its margin, padding and content boxes and its size (width × height, margin and padding
 * in px). Drawn in the frame's own document on top of the widget, never inside it, so the widget's DOM, its
 * accessibility checks and its layout are what they would be without them.
 */

export interface Inspector {
  set(options: { outline: boolean; measure: boolean }): void
  /** After a mount: the outline sheet into the widget's shadow root (kept there across remounts). */
  attach(root: ShadowRoot): void
}

/** Every element but the measure overlay's own boxes; `!important` over the widget's focus rings. */
const OUTLINE_CSS =
  ':not(#pg-measure, #pg-measure *) { outline: 1px solid rgb(41 128 185 / 0.8) !important; outline-offset: -1px !important; }'

/** Devtools' colours: margin orange, padding green, content blue. */
const OVERLAY_CSS = `
#pg-measure { position: fixed; inset: 0; pointer-events: none; z-index: 2147483647; }
#pg-measure[hidden] { display: none; }
#pg-measure > div { position: fixed; box-sizing: border-box; }
#pg-measure .margin { background: rgb(246 178 107 / 0.45); }
#pg-measure .padding { background: rgb(147 196 125 / 0.55); }
#pg-measure .content { background: rgb(111 168 220 / 0.55); }
#pg-measure .label {
  background: #1b2230; color: #fff; font: 11px/1.4 ui-monospace, monospace; padding: 2px 6px;
  border-radius: 3px; white-space: nowrap;
}`

const px = (value: string) => Number.parseFloat(value) || 0
const round = (n: number) => Math.round(n * 100) / 100

/** `top right bottom left` in px, shortened as CSS shortens it. */
function sides(top: number, right: number, bottom: number, left: number): string {
  const [t, r, b, l] = [top, right, bottom, left].map(round)
  if (t === r && r === b && b === l) return `${t}`
  if (t === b && r === l) return `${t} ${r}`
  return `${t} ${r} ${b} ${l}`
}

/** What the measure label says of an element: `320 × 48 · margin 0 0 12 · padding 16`. */
export function measureText(width: number, height: number, style: CSSStyleDeclaration): string {
  const margin = sides(
    px(style.marginTop),
    px(style.marginRight),
    px(style.marginBottom),
    px(style.marginLeft),
  )
  const padding = sides(
    px(style.paddingTop),
    px(style.paddingRight),
    px(style.paddingBottom),
    px(style.paddingLeft),
  )
  const parts = [`${round(width)} × ${round(height)}`]
  if (margin !== '0') parts.push(`margin ${margin}`)
  if (padding !== '0') parts.push(`padding ${padding}`)
  return parts.join(' · ')
}

function box(parent: HTMLElement, className: string): HTMLDivElement {
  const element = document.createElement('div')
  element.className = className
  parent.append(element)
  return element
}

function place(element: HTMLElement, left: number, top: number, width: number, height: number): void {
  Object.assign(element.style, {
    left: `${left}px`,
    top: `${top}px`,
    width: `${Math.max(0, width)}px`,
    height: `${Math.max(0, height)}px`,
  })
}

export function createInspector(doc: Document): Inspector {
  const view = doc.defaultView as Window & typeof globalThis
  const outline = new view.CSSStyleSheet()
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, outline]
  const overlayStyle = doc.createElement('style')
  overlayStyle.textContent = OVERLAY_CSS
  doc.head.append(overlayStyle)
  const overlay = doc.createElement('div')
  overlay.id = 'pg-measure'
  overlay.hidden = true
  overlay.setAttribute('aria-hidden', 'true')
  const margin = box(overlay, 'margin')
  const padding = box(overlay, 'padding')
  const content = box(overlay, 'content')
  const label = box(overlay, 'label')
  doc.body.append(overlay)
  let measuring = false

  const show = (target: Element) => {
    const rect = target.getBoundingClientRect()
    const style = view.getComputedStyle(target)
    const m = {
      t: px(style.marginTop),
      r: px(style.marginRight),
      b: px(style.marginBottom),
      l: px(style.marginLeft),
    }
    const p = {
      t: px(style.paddingTop) + px(style.borderTopWidth),
      r: px(style.paddingRight) + px(style.borderRightWidth),
      b: px(style.paddingBottom) + px(style.borderBottomWidth),
      l: px(style.paddingLeft) + px(style.borderLeftWidth),
    }
    place(margin, rect.left - m.l, rect.top - m.t, rect.width + m.l + m.r, rect.height + m.t + m.b)
    place(padding, rect.left, rect.top, rect.width, rect.height)
    place(content, rect.left + p.l, rect.top + p.t, rect.width - p.l - p.r, rect.height - p.t - p.b)
    label.textContent = measureText(rect.width, rect.height, style)
    // Below the element, or above it when there is no room below.
    const below = rect.bottom + m.b + 4
    const top = below + 20 > view.innerHeight ? Math.max(0, rect.top - m.t - 24) : below
    label.style.left = `${Math.max(0, Math.min(rect.left, view.innerWidth - label.offsetWidth - 4))}px`
    label.style.top = `${top}px`
    overlay.hidden = false
  }

  doc.addEventListener('pointermove', (event) => {
    if (!measuring) return
    // The element under the pointer inside the widget's shadow root, not its host.
    const target = event.composedPath().find((node): node is Element => node instanceof view.Element)
    if (target && target !== doc.documentElement && target !== doc.body) show(target)
    else overlay.hidden = true
  })
  doc.documentElement.addEventListener('pointerleave', () => {
    overlay.hidden = true
  })

  const roots = new Set<ShadowRoot>()
  return {
    set(options) {
      outline.replaceSync(options.outline ? OUTLINE_CSS : '')
      measuring = options.measure
      if (!measuring) overlay.hidden = true
    },
    attach(root) {
      if (roots.has(root) && root.adoptedStyleSheets.includes(outline)) return
      roots.add(root)
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, outline]
    },
  }
}
