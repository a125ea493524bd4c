/**
 * @module Viewport presets and page backgrounds of the preview frame. The widget renders in an iframe of
 * exactly the preset's width, so its container queries see a phone, a tablet or a desktop page.
 */

export const VIEWPORTS = [
  { id: 'fill', label: 'Fill the panel', width: undefined },
  { id: 360, label: 'Phone 360', width: 360 },
  { id: 768, label: 'Tablet 768', width: 768 },
  { id: 1280, label: 'Desktop 1280', width: 1280 },
] as const
export type Viewport = (typeof VIEWPORTS)[number]['id']

export const BACKGROUNDS = [
  { id: 'light', label: 'Light page' },
  { id: 'dark', label: 'Dark page' },
  { id: 'busy', label: 'Busy page' },
] as const
export type Background = (typeof BACKGROUNDS)[number]['id']

export function viewportOf(value: string | null | undefined): Viewport | undefined {
  return VIEWPORTS.find((v) => String(v.id) === value)?.id
}

export function backgroundOf(value: string | null | undefined): Background | undefined {
  return BACKGROUNDS.find((b) => b.id === value)?.id
}
