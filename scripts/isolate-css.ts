/**
 * @module Build step: the widget's stylesheet as the npm package ships it (`styles.css`, and the string
 * `<OfferWidget>` injects), made so page CSS cannot restyle the widget in the light DOM. The script tag's
 * shadow root needs none of this; a React app renders the widget among its own elements, under its reset
 * (Tailwind's preflight, Bootstrap's reboot) and rules such as `#root { text-align: center }`.
 *
 * Three parts, from src/widget/styles.css (its rules are not rewritten by hand):
 * 1. Theme defaults: its custom-property declarations (`--ow-*`) at their own specificity, so a page still
 *    themes the widget with `.ow-root { --ow-color-accent: ... }` as documented.
 * 2. A reset at ID specificity, `:where(...):not(#ow-isolated)`, (1,0,0): the widget's root starts from
 *    `all: initial` (nothing inherited from the page: font, colour, alignment, spacing) and every element in
 *    it from `all: revert` (the browser's own styles, as in a shadow root). Any page rule without an ID
 *    loses to it: type and class selectors, attribute selectors, resets in or out of cascade layers.
 * 3. Every other declaration of styles.css, each selector's subject given the same `:not(#ow-isolated)`,
 *    so the widget's rules, (1,x,y), win over the reset by their own specificity, in their own order.
 * Inline styles (theme variables, layout animations) still win, as inline styles do. Not covered: a page
 * rule with an ID selector that reaches into the widget (`#main button`) or `!important`.
 */
import { transform } from 'lightningcss'

/** An ID no element of the widget has: `:not()` of it matches everything and weighs one ID. */
export const ISOLATION_ID = 'ow-isolated'

const BUMP = { type: 'pseudo-class', kind: 'not', selectors: [[{ type: 'id', name: ISOLATION_ID }]] } as const

const RESET = `
/* Page CSS stops here (scripts/isolate-css.ts): the root inherits nothing, its elements start from the
   browser's own styles; the widget's rules below outweigh this by their own specificity. */
:where(.ow-root):not(#${ISOLATION_ID}) { all: initial; display: block; }
:where(.ow-root *):not(#${ISOLATION_ID}),
:where(.ow-root *):not(#${ISOLATION_ID})::before,
:where(.ow-root *):not(#${ISOLATION_ID})::after { all: revert; }
`

/** Oldest browsers the widget supports: lightningcss prints syntax they read (no range media queries). */
const TARGETS = { chrome: 100 << 16, firefox: 100 << 16, safari: (15 << 16) | (4 << 8) }

type Component = { type: string; [key: string]: unknown }
type Declaration = { property: string; value?: { name?: string } }

/** `--ow-*` and any custom property; lightningcss also files properties it does not know under 'custom'. */
const isCustomProperty = (declaration: Declaration) =>
  declaration.property === 'custom' && declaration.value?.name?.startsWith('--') === true

/** The selector with `:not(#ow-isolated)` on its subject, before any pseudo-element. */
function bumped(selector: Component[]): Component[] {
  const lastCombinator = selector.findLastIndex((part) => part.type === 'combinator')
  const pseudo = selector.findIndex((part, index) => index > lastCombinator && part.type === 'pseudo-element')
  const at = pseudo === -1 ? selector.length : pseudo
  return [...selector.slice(0, at), BUMP as unknown as Component, ...selector.slice(at)]
}

/**
 * One part of the stylesheet. Visitors only drop declarations or replace selectors: a rule handed back
 * whole would be re-read by lightningcss, which fails on `var()` (1.33). Minified, so rules and at-rules
 * left empty disappear.
 */
function rewrite(css: string, keep: 'custom' | 'other'): string {
  const result = transform({
    filename: 'styles.css',
    code: Buffer.from(css),
    targets: TARGETS,
    minify: true,
    visitor: {
      Declaration(declaration: Declaration) {
        return isCustomProperty(declaration) === (keep === 'custom') ? undefined : []
      },
      Selector(selector: Component[]) {
        return keep === 'other' ? bumped(selector) : undefined
      },
      // Keyframes carry no selector a page could reach: kept once, with the widget's rules.
      Rule: { keyframes: () => (keep === 'other' ? undefined : []) },
    } as never,
  })
  return result.code.toString()
}

/** The package's stylesheet from src/widget/styles.css's text. */
export function isolateCss(css: string): string {
  return `${rewrite(css, 'custom')}${RESET}${rewrite(css, 'other')}`
}
