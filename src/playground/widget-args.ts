/**
 * @module The widget's args in the playground: the embed options a story mounts with (everything but the
 * callbacks, which the frame supplies), and the controls' overrides on top of them as a flat map of
 * paths (`theme`, `search.zipCode`, `labels.heading`, `themeVariables.--ow-radius`) to JSON values, `null`
 * meaning "unset". Flat paths keep Reset, the URL and one control per field simple.
 */
import type { EmbedCallback, EmbedOptions } from '../embed/index.ts'

export type WidgetArgs = Omit<EmbedOptions, EmbedCallback>
export type ArgOverrides = Record<string, unknown>

/**
 * Args a mounted widget takes through `update()`: they change how it looks, not what it searches. Any
 * other change (source, search, lead, endpoint, form, preview, nonce...) starts a new search.
 */
export const VISUAL_ARGS: readonly string[] = [
  'theme',
  'themeVariables',
  'labels',
  'headingLevel',
  'className',
  'emptyState',
]

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** `base` with `overrides` applied; `null` removes a value, and an emptied object is dropped. */
export function applyOverrides(base: WidgetArgs, overrides: ArgOverrides): WidgetArgs {
  const result = structuredClone(base) as Record<string, unknown>
  for (const [path, value] of Object.entries(overrides)) {
    const [head, ...rest] = path.split('.') as [string, ...string[]]
    const field = rest.join('.')
    if (!field) {
      if (value === null) delete result[head]
      else result[head] = value
      continue
    }
    const target = isRecord(result[head]) ? (result[head] as Record<string, unknown>) : {}
    if (value === null) delete target[field]
    else target[field] = value
    if (Object.keys(target).length > 0) result[head] = target
    else delete result[head]
  }
  return result as WidgetArgs
}

/** The value at a flat path in `args`. */
export function argAt(args: WidgetArgs, path: string): unknown {
  const [head, ...rest] = path.split('.') as [string, ...string[]]
  const value = (args as Record<string, unknown>)[head]
  const field = rest.join('.')
  if (!field) return value
  return isRecord(value) ? value[field] : undefined
}

/** The part of the args that decides the search: when it changes, the frame mounts a fresh widget. */
export function searchArgs(args: WidgetArgs): WidgetArgs {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !VISUAL_ARGS.includes(key)))
}

/** The visual part, for `update()`: every visual arg, an unset one as `undefined` so update() clears it. */
export function visualArgs(args: WidgetArgs): WidgetArgs {
  return Object.fromEntries(VISUAL_ARGS.map((key) => [key, (args as Record<string, unknown>)[key]]))
}
