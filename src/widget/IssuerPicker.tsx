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
  const options = [
    ...(issuers ?? []).filter((i) => i.id !== NOT_INSURED),
    { id: NOT_INSURED, name: labels.notInsured, logoImageUrl: '' },
  ]
  return (
    <fieldset className="ow-field">
      <legend className="ow-legend">
        {labels.currentIssuer} <span className="ow-muted">{labels.optional}</span>
      </legend>
      {loading && <p className="ow-muted">{labels.issuersLoading}</p>}
      {failed && <p className="ow-muted">{labels.issuersUnavailable}</p>}
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
      </div>
    </fieldset>
  )
}
