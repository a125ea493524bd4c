/**
 * @module Copy to the clipboard with a status line to announce: "Copied", or what to do when the browser
 * refuses (no permission, an insecure origin).
 */
import { useCallback, useState } from 'react'

export function useCopy(): [status: string, copy: (text: string, what: string) => void] {
  const [status, setStatus] = useState('')
  const copy = useCallback((text: string, what: string) => {
    navigator.clipboard.writeText(text).then(
      () => setStatus(`Copied ${what}.`),
      (error: unknown) =>
        setStatus(`Could not copy ${what} (${String(error)}): select the text and copy it.`),
    )
  }, [])
  return [status, copy]
}
