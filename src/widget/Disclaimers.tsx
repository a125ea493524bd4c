/**
 * @module Partner disclaimers. Seed 000 rule 5: "Show a partner's `disclaimer` when it is populated."
 * Every partner seen during the search keeps its disclaimer here after it answered; each shows once.
 */
import type { Labels } from './labels.ts'
import type { Disclaimer } from './seen-partners.ts'

export interface DisclaimersProps {
  disclaimers: Disclaimer[]
  labels: Labels
  headingLevel: number
}

export function Disclaimers({ disclaimers, labels, headingLevel }: DisclaimersProps) {
  if (disclaimers.length === 0) return null
  const Heading = `h${Math.min(headingLevel, 6)}` as 'h3'
  return (
    <div className="ow-disclaimers" data-ow-flip="disclaimers">
      <Heading className="ow-disclaimers-heading">{labels.disclaimers}</Heading>
      {disclaimers.map((d) => (
        <p key={d.partnerUuid} className="ow-disclaimer" data-partner-uuid={d.partnerUuid}>
          {d.text}
        </p>
      ))}
    </div>
  )
}
