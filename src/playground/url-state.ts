/**
 * @module The playground's state in the address bar, so a story with its controls is a shareable link:
 * `?story=no-offers&mode=bff&theme=dark&preview=1&width=360&endpoint=...&labels={...}`.
 */
import type { Labels } from '../widget/index.ts'

export type Mode = 'msw' | 'bff'

export interface PlaygroundState {
  story: string
  /** `msw`: the story's handlers in a service worker. `bff`: the real BFF and its sandbox (by ZIP). */
  mode: Mode
  theme: 'light' | 'dark' | undefined
  preview: boolean
  width: number | undefined
  endpoint: string
  labels: Partial<Labels>
}

function parseLabels(text: string | null): Partial<Labels> {
  if (!text) return {}
  try {
    const value = JSON.parse(text) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Partial<Labels>) : {}
  } catch {
    return {}
  }
}

export function readState(search: string): PlaygroundState {
  const q = new URLSearchParams(search)
  const theme = q.get('theme')
  const width = Number(q.get('width'))
  return {
    story: q.get('story') ?? '',
    mode: q.get('mode') === 'bff' ? 'bff' : 'msw',
    theme: theme === 'dark' || theme === 'light' ? theme : undefined,
    preview: q.get('preview') === '1',
    width: Number.isInteger(width) && width >= 240 && width <= 2000 ? width : undefined,
    endpoint: q.get('endpoint') ?? '',
    labels: parseLabels(q.get('labels')),
  }
}

export function writeState(state: PlaygroundState): string {
  const q = new URLSearchParams()
  if (state.story) q.set('story', state.story)
  if (state.mode !== 'msw') q.set('mode', state.mode)
  if (state.theme) q.set('theme', state.theme)
  if (state.preview) q.set('preview', '1')
  if (state.width) q.set('width', String(state.width))
  if (state.endpoint) q.set('endpoint', state.endpoint)
  if (Object.keys(state.labels).length > 0) q.set('labels', JSON.stringify(state.labels))
  const text = q.toString()
  return text ? `?${text}` : ''
}
