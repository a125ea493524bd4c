/**
 * @module Partner disclaimers. docs/offer-search-api.md rule 5: "Show a partner's `disclaimer` when it is populated."
 * Every partner seen during the search keeps its disclaimer here after it answered; each shows once, names
 * its partner and the carriers on screen it covers, and is the target of those cards' "Disclaimer"
 * (docs/decisions/0109-offer-sources.md).
 */
import { useState } from 'react'
import type { DisplayOffer } from './display-rules.ts'
import { formatLabel, joinNames, type Labels } from './labels.ts'
import { disclaimerElementId } from './OfferCard.tsx'
import { isSameCompany } from './offer-sources.ts'
import type { Disclaimer } from './seen-partners.ts'

export interface DisclaimersProps {
  disclaimers: Disclaimer[]
  /** The cards on screen: an entry says which of their carriers it covers. */
  offers: readonly DisplayOffer[]
  /** The widget's id prefix: each entry's id is `disclaimerElementId(idBase, partnerUuid)`. */
  idBase: string
  labels: Labels
  headingLevel: number
}

/** The carriers on screen a disclaimer covers, its partner's own name left out ("Acme, for Acme" says nothing). */
function carriersCovered(disclaimer: Disclaimer, offers: readonly DisplayOffer[]): string[] {
  const names = offers
    .filter((offer) => offer.disclaimerPartners.includes(disclaimer.partnerUuid))
    .map((offer) => offer.carrierName)
    .filter((name) => name !== '' && !isSameCompany(disclaimer.brandName, name))
  return [...new Set(names)]
}

export function Disclaimers({ disclaimers, offers, idBase, labels, headingLevel }: DisclaimersProps) {
  const [open, setOpen] = useState(false)
  if (disclaimers.length === 0) return null
  const Heading = `h${Math.min(headingLevel, 6)}` as 'h3'
  // Long legal text is clamped to a few lines until asked for, or until a card's "Disclaimer" moves focus
  // to an entry (focus on the "More details" button itself does not count).
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: listens for focus moved to an entry; nothing to operate
    <div
      className="ow-disclaimers"
      data-ow-flip="disclaimers"
      data-ow-open={open || undefined}
      onFocus={(event) => {
        if (event.target.classList.contains('ow-disclaimer')) setOpen(true)
      }}
    >
      <Heading className="ow-disclaimers-heading">{labels.disclaimers}</Heading>
      {disclaimers.map((d) => {
        const carriers = carriersCovered(d, offers)
        const covers =
          carriers.length > 0
            ? formatLabel(labels.disclaimerFor, { carriers: joinNames(carriers, labels.lang, 'conjunction') })
            : ''
        const lead = [d.brandName, covers].filter((part) => part !== '').join(', ')
        return (
          <p
            key={d.partnerUuid}
            id={disclaimerElementId(idBase, d.partnerUuid)}
            className="ow-disclaimer"
            data-partner-uuid={d.partnerUuid}
            tabIndex={-1}
          >
            {lead && <strong>{lead}: </strong>}
            {d.text}
          </p>
        )
      })}
      {disclaimers.some((d) => d.text.length > 200) && (
        <button type="button" className="ow-link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? labels.fewerDetails : labels.moreDetails}
        </button>
      )}
    </div>
  )
}
