/**
 * @module The playground's side of the preview frame: a ref for the iframe, whether it is ready, its
 * content height, `send()` for messages to it, and the frame's messages (checked with zod/mini) handed on.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useLatestRef } from '../widget/useLatestRef.ts'
import { type FromFrame, fromFrameSchema, type ToFrame } from './frame/frame-protocol.ts'

export function usePreviewFrame(onMessage: (message: FromFrame) => void) {
  const frameRef = useRef<HTMLIFrameElement>(null)
  const [ready, setReady] = useState(false)
  const [height, setHeight] = useState(480)
  const latest = useLatestRef(onMessage)

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== frameRef.current?.contentWindow) return
      const parsed = fromFrameSchema.safeParse(event.data)
      if (!parsed.success) return
      const message = parsed.data
      if (message.type === 'ready') setReady(true)
      else if (message.type === 'size') setHeight(message.height)
      else latest.current(message)
    }
    window.addEventListener('message', listener)
    // The frame says `ready` when it starts; if that came before this listener, this asks again.
    frameRef.current?.contentWindow?.postMessage({ type: 'hello' }, window.location.origin)
    return () => window.removeEventListener('message', listener)
  }, [latest])

  const send = useCallback((message: ToFrame) => {
    frameRef.current?.contentWindow?.postMessage(message, window.location.origin)
  }, [])

  return { frameRef, ready, height, send }
}
