/**
 * @module Colours for the colour pickers of the theme variables: a CSS colour as the `#rrggbb` an
 * `<input type="color">` takes (hex and rgb() forms; a name or any other syntax has none, and the picker
 * then shows the theme's default), and the presets' defaults as the widget's styles.css declares them.
 */
import type { ThemePreset } from '../widget/theme.ts'

const hex2 = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, '0')

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r g b)`, `rgb(r, g, b[, a])` as `#rrggbb` (alpha dropped). */
export function colorToHex(value: string | undefined): string | undefined {
  const text = value?.trim().toLowerCase() ?? ''
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text)?.[1]
  if (hex) {
    const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6)
    return `#${full}`
  }
  const rgb = /^rgba?\(\s*([\d.]+%?)[\s,]+([\d.]+%?)[\s,]+([\d.]+%?)\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(text)
  if (!rgb) return undefined
  const channel = (part: string) =>
    part.endsWith('%') ? (Number.parseFloat(part) * 255) / 100 : Number(part)
  return `#${[rgb[1], rgb[2], rgb[3]].map((part) => hex2(channel(part ?? '0'))).join('')}`
}

/** The `--ow-*` values the preset's rule in `css` declares (`.ow-root`, or its dark variant). */
export function presetDefaults(css: string, preset: ThemePreset): Record<string, string> {
  const selector = preset === 'dark' ? '.ow-root[data-ow-theme="dark"] {' : '.ow-root {'
  const start = css.indexOf(selector)
  if (start === -1) return {}
  const body = css.slice(start + selector.length, css.indexOf('}', start))
  const out: Record<string, string> = {}
  for (const match of body.matchAll(/(--ow-[\w-]+)\s*:\s*([^;]+);/g)) {
    if (match[1] && match[2]) out[match[1]] = match[2].trim()
  }
  return out
}
