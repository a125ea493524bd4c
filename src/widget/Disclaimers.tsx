/**
 * @module Partner disclaimers. docs/offer-search-api.md rule 5: "Show a partner's `disclaimer` when it is populated."
 * Every partner seen during the search keeps its disclaimer here after it answered; each shows once.
 */
import { useState } from 'react'
import type { Labels } from './labels.ts'
import type { Disclaimer } from './seen-partners.ts'

export interface DisclaimersProps {
  disclaimers: Disclaimer[]
  labels: Labels
  headingLevel: number
}

export function Disclaimers({ disclaimers, labels, headingLevel }: DisclaimersProps) {
  const [open, setOpen] = useState(false)
  if (disclaimers.length === 0) return null
  const Heading = `h${Math.min(headingLevel, 6)}` as 'h3'
  // Long legal text is clamped to a few lines until asked for; each names its partner so a visitor can
  // tell which offer it belongs to.
  return (
    <div className="ow-disclaimers" data-ow-flip="disclaimers" data-ow-open={open || undefined}>
      <Heading className="ow-disclaimers-heading">{labels.disclaimers}</Heading>
      {disclaimers.map((d) => (
        <p key={d.partnerUuid} className="ow-disclaimer" data-partner-uuid={d.partnerUuid}>
          {d.brandName && <strong>{d.brandName}: </strong>}
          {d.text}
        </p>
      ))}
      {disclaimers.some((d) => d.text.length > 200) && (
        <button type="button" className="ow-link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? labels.fewerDetails : labels.moreDetails}
        </button>
      )}
    </div>
  )
}
