/**
 * @module The "Sponsored" line above the offers and its advertiser disclosure: a link to the publisher's
 * own disclosure page when `disclosureUrl` is set, else the widget's own sentence behind a button
 * (`labels.disclosureText`), so a visitor can always learn why these offers are shown.
 */
import { useId, useState } from 'react'
import type { Labels } from './labels.ts'
import { safeHttpUrl } from './safe-url.ts'

export function Sponsored({ labels, disclosureUrl }: { labels: Labels; disclosureUrl: string | undefined }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  if (!labels.sponsored) return null
  const href = safeHttpUrl(disclosureUrl)
  return (
    <div className="ow-sponsored ow-muted">
      <span>{labels.sponsored}</span>
      {' · '}
      {href ? (
        <a className="ow-link" href={href} target="_blank" rel="noopener">
          {labels.disclosure}
        </a>
      ) : (
        <button
          type="button"
          className="ow-link"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
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
