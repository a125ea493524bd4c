/** @module The widget's polite live region: what it says as cards come on screen and when the search ends. */
import { useEffect, useRef, useState } from 'react'
import type { DisplayOffer } from './display-rules.ts'
import { completeLabel, countLabel, formatLabel, type Labels } from './labels.ts'

/**
 * What the polite live region says: new cards as they come on screen, then how the search ended, how many
 * cards are on screen and whose card is first (never "best": the order is the partners' ranking).
 */
export function useAnnouncement(
  /** The search's status, or `refused` for an error that is the BFF's refusal of this browser. */
  status: string,
  count: number,
  visible: readonly DisplayOffer[],
  labels: Labels,
  failed: boolean,
): string {
  const [message, setMessage] = useState('')
  const announced = useRef(0)
  const onScreen = visible.length
  const first = visible[0]?.carrierName ?? ''
  useEffect(() => {
    const shown = () =>
      formatLabel(labels.showingBest, {
        shown: countLabel(labels.offersOne, labels.offersMany, onScreen),
        first,
        // The placeholder's earlier name, still filled for publishers' own texts.
        best: first,
      })
    if (status === 'complete') {
      if (failed) setMessage(onScreen > 0 ? `${labels.partial} ${shown()}` : labels.partial)
      else setMessage(count === 0 ? labels.noOffers : `${completeLabel(labels, count)} ${shown()}`)
    } else if (status === 'error' || status === 'refused') {
      setMessage(status === 'refused' ? labels.refused : labels.error)
    } else if (onScreen > announced.current) {
      setMessage(countLabel(labels.newOffer, labels.newOffers, onScreen - announced.current))
    }
    announced.current = Math.max(announced.current, onScreen)
  }, [status, count, onScreen, first, labels, failed])
  return message
}
