/**
 * @module The paste-ready block `npm run snippet` prints: a `<style>` that keeps the widget's place from
 * the page's first paint (so nothing on the page moves when the bundle arrives, the form turns into
 * offers or offers arrive: CLS 0), the mount point, the same mount point with `data-zip-code` commented
 * out, and the loader. Plain text, no server code: the BFF's snippet command and the tests use it.
 */

/** The class the reservation styles: the publisher may keep it on any mount point. */
const SLOT_CLASS = 'offer-widget-slot'

/**
 * Minimum heights by viewport width, measured in Chromium with the defaults (three offer places, the status
 * line, partner disclaimers, system fonts): the tallest results of the sandbox searches, long copy included
 * (clamped behind "More details"), in a publisher column of the viewport less 32 px (1518-1747 px at
 * 302-328 px of widget width; 1106-1379 px at 728 px), plus room for other copy. Phones are the tallest
 * because every text wraps and the call to action stacks under the copy. Once the widget waits on the
 * visitor, the embed gives back what its content does not use (fit-slot.ts), so a generous reservation
 * leaves no blank place behind.
 */
const RESERVED_HEIGHTS: readonly { minViewport: number; px: number }[] = [
  { minViewport: 0, px: 1950 },
  { minViewport: 560, px: 1450 },
]

/** The reservation's CSS (what goes between `<style>` and `</style>`). */
export function reservationCss(): string {
  return RESERVED_HEIGHTS.map(({ minViewport, px }) =>
    minViewport === 0
      ? `.${SLOT_CLASS}{display:block;min-height:${px}px}`
      : `@media (min-width:${minViewport}px){.${SLOT_CLASS}{min-height:${px}px}}`,
  ).join('')
}

/** The mount point for a BFF at `endpoint`, with the reservation's class and any further attributes. */
export function mountPointHtml(endpoint: string, extra = ''): string {
  const attribute = endpoint.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  return `<div class="${SLOT_CLASS}" data-offer-widget data-endpoint="${attribute}"${extra}></div>`
}

export interface PasteBlockOptions {
  /** The bundle's version, named in the first comment. */
  version: string
  endpoint: string
  /** The loader's `<script>` element. */
  loader: string
}

/** Every line to paste, in order. */
export function pasteBlock({ version, endpoint, loader }: PasteBlockOptions): string {
  return [
    `<!-- offer-widget ${version}: paste where the offers go; the style keeps their place from the first paint -->`,
    `<style>${reservationCss()}</style>`,
    mountPointHtml(endpoint),
    "<!-- Knows the visitor's ZIP code? Use this mount point instead: offers show at once, without the form.",
    `${mountPointHtml(endpoint, ' data-zip-code="94107"')} -->`,
    loader,
  ].join('\n')
}
