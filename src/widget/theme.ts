/**
 * @module The publisher's theming surface: a preset (light or dark) and any `--ow-*` custom property.
 * The defaults live in styles.css; these only override them on the widget's root.
 */

export type ThemePreset = 'light' | 'dark'

export const THEME_VARIABLES = [
  '--ow-color-bg',
  '--ow-color-surface',
  '--ow-color-text',
  '--ow-color-muted',
  '--ow-color-border',
  '--ow-color-accent',
  '--ow-color-accent-text',
  '--ow-color-focus',
  '--ow-color-error',
  '--ow-color-success',
  '--ow-radius',
  '--ow-font',
  '--ow-font-size',
  '--ow-space',
] as const
export type ThemeVariable = (typeof THEME_VARIABLES)[number]
export type ThemeVariables = Partial<Record<ThemeVariable, string>>

/** Only known `--ow-*` names reach the style attribute; anything else a page passes is ignored. */
export function themeStyle(variables: ThemeVariables | undefined): Record<string, string> | undefined {
  if (!variables) return undefined
  const style: Record<string, string> = {}
  for (const name of THEME_VARIABLES) {
    const value = variables[name]
    if (typeof value === 'string' && value !== '') style[name] = value
  }
  return style
}
