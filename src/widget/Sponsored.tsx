/**
 * @module The "Sponsored" line above the offers and its advertiser disclosure: a link to the publisher's
 * own disclosure page when `disclosureUrl` is set, else the widget's own sentence behind a button
 * (`labels.disclosureText`), so a visitor can always learn why these offers are shown. Opening either is
 * the `disclosure_open` event (docs/events.md).
 */
import { useId, useState } from 'react'
import type { OfferWidgetEvent } from './events/widget-event.ts'
import type { Labels } from './labels.ts'
import { safeHttpUrl } from './safe-url.ts'

export interface SponsoredProps {
  labels: Labels
  disclosureUrl: string | undefined
  emit: (event: OfferWidgetEvent) => void
}

export function Sponsored({ labels, disclosureUrl, emit }: SponsoredProps) {
  const [open, setOpen] = useState(false)
  const id = useId()
  if (!labels.sponsored) return null
  const href = safeHttpUrl(disclosureUrl)
  return (
    <div className="ow-sponsored ow-muted">
      <span>{labels.sponsored}</span>
      {' · '}
      {href ? (
        <a
          className="ow-link"
          href={href}
          target="_blank"
          rel="noopener"
          onClick={() => emit({ type: 'disclosure_open', via: 'link' })}
        >
          {labels.disclosure}
        </a>
      ) : (
        <button
          type="button"
          className="ow-link"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => {
            if (!open) emit({ type: 'disclosure_open', via: 'text' })
            setOpen(!open)
          }}
        >
          {labels.disclosure}
        </button>
      )}
      {!href && open && (
        <p id={id} className="ow-disclosure">
          {labels.disclosureText}
        </p>
      )}
    </div>
  )
}
