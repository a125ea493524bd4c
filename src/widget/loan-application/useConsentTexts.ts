/**
 * @module The operator's consent texts for the application: loading, failed (with a retry), or ready. Asked
 * once when the application appears, so they are there by its last step; the request is aborted on unmount.
 */
import { useCallback, useEffect, useState } from 'react'
import type { ConsentTexts } from '../../contract/consent.ts'
import { fetchConsentTexts } from './fetch-consent-texts.ts'

export type ConsentTextsState =
  | { status: 'loading'; texts?: undefined }
  | { status: 'failed'; texts?: undefined }
  | { status: 'ready'; texts: ConsentTexts }

export function useConsentTexts(endpoint: string): ConsentTextsState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0)
  const [state, setState] = useState<ConsentTextsState>({ status: 'loading' })

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: a new request each time it moves
  useEffect(() => {
    const controller = new AbortController()
    setState((current) => (current.status === 'loading' ? current : { status: 'loading' }))
    fetchConsentTexts(endpoint, controller.signal).then(
      (texts) => {
        if (!controller.signal.aborted) setState({ status: 'ready', texts })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        console.warn('offer-widget: the consent texts could not be loaded:', String(error))
        setState({ status: 'failed' })
      },
    )
    return () => controller.abort()
  }, [endpoint, attempt])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { ...state, retry }
}
