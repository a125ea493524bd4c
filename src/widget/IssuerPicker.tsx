/**
 * @module "Current insurer" as a radio group of logos and names from `/api/issuers`, plus "Not currently
 * insured" (`notinsured`). Radios, not a select, because options carry logos; arrow keys move between them.
 */

import { type Issuer, NOT_INSURED } from '../contract/rate-table.ts'
import type { Labels } from './labels.ts'
import { safeHttpUrl } from './safe-url.ts'

export interface IssuerPickerProps {
  name: string
  value: string
  onChange: (value: string) => void
  issuers: Issuer[] | undefined
  loading: boolean
  failed: boolean
  labels: Labels
}

export function IssuerPicker({ name, value, onChange, issuers, loading, failed, labels }: IssuerPickerProps) {
  // "Not insured" first: it is there before the list loads, and the insurers' arrival below it moves it not.
  const options = [
    { id: NOT_INSURED, name: labels.notInsured, logoImageUrl: '' },
    ...(issuers ?? []).filter((i) => i.id !== NOT_INSURED),
  ]
  return (
    <fieldset className="ow-field">
      <legend className="ow-legend">
        {labels.currentIssuer} <span className="ow-muted">{labels.optional}</span>
      </legend>
      {/* A box of fixed height from the first render: the list's arrival moves nothing below it. */}
      <div className="ow-issuers">
        {options.map((issuer) => {
          const logo = safeHttpUrl(issuer.logoImageUrl)
          return (
            <label key={issuer.id} className="ow-issuer">
              <input
                type="radio"
                name={name}
                value={issuer.id}
                checked={value === issuer.id}
                onChange={() => onChange(issuer.id)}
              />
              {logo && <img src={logo} alt="" width={28} height={28} loading="lazy" />}
              <span>{issuer.name}</span>
            </label>
          )
        })}
        {loading && <p className="ow-muted ow-issuers-note">{labels.issuersLoading}</p>}
        {failed && <p className="ow-muted ow-issuers-note">{labels.issuersUnavailable}</p>}
      </div>
    </fieldset>
  )
}
