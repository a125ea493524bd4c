/**
 * @module The live widget, mounted exactly as the script tag mounts it: `mount()` from src/embed into a
 * Shadow DOM. Remounted when the story or mode changes (a fresh search); controls go through `update()`.
 */
import { useEffect, useRef } from 'react'
import { type EmbedOptions, type MountHandle, mount } from '../embed/index.ts'
import { useLatestRef } from '../widget/useLatestRef.ts'

export interface WidgetPreviewProps {
  /** Changes when the widget must start over. */
  runKey: string
  /** Runs before each mount (e.g. swaps the msw scenario). */
  prepare: () => Promise<void>
  options: EmbedOptions
  width: number | undefined
}

export function WidgetPreview({ runKey, prepare, options, width }: WidgetPreviewProps) {
  const hostRef = useRef<HTMLDivElement>(null)
  const handleRef = useRef<MountHandle | null>(null)
  const latest = useLatestRef({ prepare, options })

  // biome-ignore lint/correctness/useExhaustiveDependencies: runKey is the remount signal
  useEffect(() => {
    let cancelled = false
    const host = hostRef.current
    latest.current.prepare().then(() => {
      if (cancelled || !host) return
      handleRef.current = mount(host, latest.current.options)
    })
    return () => {
      cancelled = true
      handleRef.current?.unmount()
      handleRef.current = null
    }
  }, [runKey, latest])

  useEffect(() => {
    handleRef.current?.update(options)
  }, [options])

  return (
    <div className="pg-stage" style={width ? { width } : undefined}>
      <div ref={hostRef} id="widget" data-story={runKey} />
    </div>
  )
}
