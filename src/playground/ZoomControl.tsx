/**
 * @module The toolbar's zoom: out, the percentage shown (a click resets to 100 %), in, and Fit (zoom.ts).
 * The percentage is the scale the frame is drawn at, so under Fit it says how far the frame was shrunk.
 */
import { type Zoom, zoomStep } from './zoom.ts'

export interface ZoomControlProps {
  zoom: Zoom | undefined
  /** The scale the frame is drawn at now. */
  scale: number
  onZoom: (zoom: Zoom | undefined) => void
}

export function ZoomControl({ zoom, scale, onZoom }: ZoomControlProps) {
  const percent = Math.round(scale * 100)
  const to = (next: number) => onZoom(next === 100 ? undefined : next)
  return (
    <fieldset className="pg-zoom">
      <legend>Zoom</legend>
      <button
        type="button"
        aria-label="Zoom out"
        title="Zoom out"
        onClick={() => to(zoomStep(scale, -1))}
        disabled={percent <= 50}
      >
        −
      </button>
      <button
        type="button"
        className="pg-zoom-value"
        title="Reset zoom"
        onClick={() => onZoom(undefined)}
        disabled={zoom === undefined}
      >
        {percent} %<span className="pg-visually-hidden">, reset zoom</span>
      </button>
      <button
        type="button"
        aria-label="Zoom in"
        title="Zoom in"
        onClick={() => to(zoomStep(scale, 1))}
        disabled={percent >= 200}
      >
        +
      </button>
      <button
        type="button"
        aria-pressed={zoom === 'fit'}
        title="Scale the viewport down to fit the pane"
        onClick={() => onZoom(zoom === 'fit' ? undefined : 'fit')}
      >
        Fit
      </button>
    </fieldset>
  )
}
