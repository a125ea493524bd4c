/**
 * @module The code panel's text: the React element and the script-tag page for a set of widget args. The
 * playground's preview frame mounts the widget with the very same args object, so the code shown is the
 * code running on screen (plus the callbacks that feed the event log, named in a comment).
 */
import { EMBED_EVENTS } from '../embed/index.ts'
import type { WidgetArgs } from './widget-args.ts'

const CALLBACK_NOTE = `The playground also passes ${Object.keys(EMBED_EVENTS).join(', ')}: they feed its event log.`

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** A JS literal: JSON with identifier keys unquoted, strings single-quoted. */
function literal(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[${value.map((v) => literal(v, indent)).join(', ')}]`
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return '{}'
    const inner = `${indent}  `
    const lines = entries.map(
      ([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : quote(k)}: ${literal(v, inner)},`,
    )
    return `{\n${lines.join('\n')}\n${indent}}`
  }
  if (typeof value === 'string') return quote(value)
  return String(value)
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`
}

function defined(args: WidgetArgs): [string, unknown][] {
  return Object.entries(args).filter(([, value]) => value !== undefined)
}

/** `<OfferWidget ... />` for a React page. */
export function reactCode(args: WidgetArgs): string {
  const props = defined(args).map(([name, value]) => {
    if (value === true) return `      ${name}`
    if (typeof value === 'string' && !/["\n\\{}]/.test(value)) return `      ${name}="${value}"`
    return `      ${name}={${literal(value, '      ')}}`
  })
  return [
    "import { OfferWidget } from 'offer-widget'",
    '',
    `// ${CALLBACK_NOTE}`,
    'export function Offers() {',
    '  return (',
    props.length > 0 ? `    <OfferWidget\n${props.join('\n')}\n    />` : '    <OfferWidget />',
    '  )',
    '}',
    '',
  ].join('\n')
}

/**
 * A page's script-tag embed: a mount point, the loader snippet (`loaderScript`, from the BFF's
 * `/embed/manifest.json`) and `OfferWidget.mount()` with the args. JSON inside `<script>` has `<` escaped,
 * so no value can close the element.
 */
export function scriptTagCode(args: WidgetArgs, loaderScript: string): string {
  const options = JSON.stringify(Object.fromEntries(defined(args)), null, 2)
    .replace(/</g, '\\u003c')
    .replace(/\n/g, '\n  ')
  return [
    '<div id="offer-widget"></div>',
    `<script>${loaderScript}</script>`,
    '<script>',
    `  // ${CALLBACK_NOTE}`,
    `  OfferWidget.mount('#offer-widget', ${options})`,
    '</script>',
    '',
  ].join('\n')
}
