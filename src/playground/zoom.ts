/**
 * @module The preview's zoom, as Storybook's toolbar has it: steps from 50 % to 200 %, and "fit", which
 * scales a viewport wider than the pane down until it fits (never up: a phone stays phone-sized). The frame
 * keeps its CSS width, so the widget still sees a 360 px viewport while it is drawn at another size.
 */

/** Zoom in percent, or `fit`. */
export type Zoom = number | 'fit'

export const ZOOM_STEPS = [50, 67, 75, 90, 100, 110, 125, 150, 175, 200] as const
const MIN = ZOOM_STEPS[0]
const MAX = ZOOM_STEPS[ZOOM_STEPS.length - 1] as number

/** A zoom read from the link (`150`, `fit`); anything else is no zoom (100 %). */
export function zoomOf(value: string | null | undefined): Zoom | undefined {
  if (value === 'fit') return 'fit'
  if (!value || !/^\d{1,3}$/.test(value)) return undefined
  const percent = Number(value)
  return percent >= MIN && percent <= MAX && percent !== 100 ? percent : undefined
}

/** The scale the frame is drawn at: `fit` shrinks `frameWidth` into `paneWidth`, never enlarging. */
export function scaleOf(zoom: Zoom | undefined, frameWidth: number | undefined, paneWidth: number): number {
  if (zoom === undefined) return 1
  if (zoom !== 'fit') return zoom / 100
  if (!frameWidth || paneWidth <= 0) return 1
  return Math.min(1, paneWidth / frameWidth)
}

/** The next step in (`+1`) or out (`-1`) from the scale shown now; at the end, the end. */
export function zoomStep(scale: number, direction: 1 | -1): number {
  const percent = Math.round(scale * 100)
  const next =
    direction === 1
      ? ZOOM_STEPS.find((step) => step > percent)
      : [...ZOOM_STEPS].reverse().find((step) => step < percent)
  return next ?? (direction === 1 ? MAX : MIN)
}
