/**
 * @module The playground's state in the address bar, so a story with its controls is a shareable link:
 * `?story=no-offers&mode=bff&vp=360&bg=dark&zoom=fit&outline=1&panel=code&args={"theme":"dark"}`.
 * `args` holds only what differs from the story's defaults (see widget-args.ts); a link that does not parse
 * falls back to the defaults piece by piece instead of failing.
 */
import { z } from 'zod/mini'
import { type Background, backgroundOf, type Viewport, viewportOf } from './viewports.ts'
import type { ArgOverrides } from './widget-args.ts'
import { type Zoom, zoomOf } from './zoom.ts'

export type Mode = 'msw' | 'bff'

export const PANELS = ['controls', 'docs', 'code', 'a11y'] as const
export type Panel = (typeof PANELS)[number]

export interface PlaygroundState {
  story: string
  /** `msw`: the story's handlers in a service worker. `bff`: the real BFF and its sandbox (by ZIP). */
  mode: Mode
  overrides: ArgOverrides
  /** `undefined`: the story's own (or fill the panel). */
  viewport: Viewport | undefined
  background: Background | undefined
  /** `undefined`: 100 %. */
  zoom: Zoom | undefined
  /** The Outline and Measure toggles of the toolbar. */
  outline: boolean
  measure: boolean
  panel: Panel
}

const overridesSchema = z.record(
  z.string().check(z.regex(/^[\w-]+(\.[\w-]+)?$/)),
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.record(z.string(), z.unknown()),
    z.array(z.unknown()),
  ]),
)

function parseOverrides(text: string | null): ArgOverrides {
  if (!text) return {}
  try {
    const parsed = overridesSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : {}
  } catch {
    return {}
  }
}

export function readState(search: string): PlaygroundState {
  const q = new URLSearchParams(search)
  const panel = q.get('panel')
  return {
    story: q.get('story') ?? '',
    mode: q.get('mode') === 'bff' ? 'bff' : 'msw',
    overrides: parseOverrides(q.get('args')),
    viewport: viewportOf(q.get('vp')),
    background: backgroundOf(q.get('bg')),
    zoom: zoomOf(q.get('zoom')),
    outline: q.get('outline') === '1',
    measure: q.get('measure') === '1',
    panel: PANELS.find((p) => p === panel) ?? 'controls',
  }
}

export function writeState(state: PlaygroundState): string {
  const q = new URLSearchParams()
  if (state.story) q.set('story', state.story)
  if (state.mode !== 'msw') q.set('mode', state.mode)
  if (state.viewport !== undefined) q.set('vp', String(state.viewport))
  if (state.background) q.set('bg', state.background)
  if (state.zoom !== undefined) q.set('zoom', String(state.zoom))
  if (state.outline) q.set('outline', '1')
  if (state.measure) q.set('measure', '1')
  if (state.panel !== 'controls') q.set('panel', state.panel)
  if (Object.keys(state.overrides).length > 0) q.set('args', JSON.stringify(state.overrides))
  const text = q.toString()
  return text ? `?${text}` : ''
}
