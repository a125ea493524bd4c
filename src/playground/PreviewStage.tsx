/**
 * @module The preview frame on its checkered stage, drawn at the zoom's scale: the iframe keeps the
 * viewport's CSS width (the widget's container queries see 360 px at any zoom) and is scaled with a
 * transform inside a box of the scaled size, so the stage scrolls around what is drawn. "Fill the panel"
 * fills the stage at any zoom: its CSS width is the stage's divided by the scale.
 */
import { type RefObject, useEffect, useRef, useState } from 'react'
import { FRAME_PATH } from './frame/frame-protocol.ts'
import type { Viewport } from './viewports.ts'
import { scaleOf, type Zoom } from './zoom.ts'

export interface PreviewStageProps {
  frameRef: RefObject<HTMLIFrameElement | null>
  viewport: Viewport
  /** The viewport's CSS width; `undefined` fills the stage. */
  width: number | undefined
  /** The frame's content height (CSS px), as the frame reports it. */
  height: number
  zoom: Zoom | undefined
  /** The scale drawn now, for the toolbar's percentage. */
  onScale: (scale: number) => void
}

/** The stage's padding and border (playground.css `.pg-stage`): what the frame cannot use of its width. */
const STAGE_INSET = 18
const MIN_HEIGHT = 320

export function PreviewStage({ frameRef, viewport, width, height, zoom, onScale }: PreviewStageProps) {
  const stage = useRef<HTMLDivElement>(null)
  const [paneWidth, setPaneWidth] = useState(0)
  useEffect(() => {
    const element = stage.current
    if (!element) return
    const observer = new ResizeObserver(() => setPaneWidth(Math.max(0, element.clientWidth - STAGE_INSET)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  const scale = scaleOf(zoom, width, paneWidth)
  useEffect(() => onScale(scale), [scale, onScale])
  const cssWidth = width ?? (scale !== 1 && paneWidth > 0 ? paneWidth / scale : undefined)
  const cssHeight = Math.max(height, MIN_HEIGHT)
  return (
    <div className="pg-stage" ref={stage} data-scale={scale}>
      <div
        className="pg-frame-box"
        style={{
          width: cssWidth === undefined ? '100%' : cssWidth * scale,
          height: cssHeight * scale,
        }}
      >
        <iframe
          ref={frameRef}
          title="Widget preview"
          src={FRAME_PATH}
          className="pg-frame"
          data-viewport={String(viewport)}
          style={{
            width: cssWidth ?? '100%',
            height: cssHeight,
            ...(scale !== 1 && { transform: `scale(${scale})`, transformOrigin: '0 0' }),
          }}
        />
      </div>
    </div>
  )
}
