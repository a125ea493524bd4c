/**
 * @module "Current insurer": first "Not currently insured" or "Currently insured", then, for an insured
 * visitor, the insurers from `/api/issuers` as a radio group of logos and names, in the page's flow (no
 * scroll box inside the page). The list opens on the visitor's choice, never on its own: the insurers
 * arrive while the visitor reads the form, and a list drawn then would push the fields below it away
 * (a layout shift); one drawn in answer to a tap is not a shift (the Layout Instability API's recent
 * input). Radios, not a select, because the options carry logos; arrow keys move within each group.
 */

import { useState } from 'react'
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
  // Open from the start when the page already named an insurer (props, data attributes).
  const [insured, setInsured] = useState(value !== '' && value !== NOT_INSURED)
  const list = (issuers ?? []).filter((issuer) => issuer.id !== NOT_INSURED)
  return (
    <fieldset className="ow-field">
      <legend className="ow-legend">
        {labels.currentIssuer} <span className="ow-muted">{labels.optional}</span>
      </legend>
      <div className="ow-choices">
        <label className="ow-choice">
          <input
            type="radio"
            name={`${name}-insured`}
            checked={value === NOT_INSURED}
            onChange={() => {
              setInsured(false)
              onChange(NOT_INSURED)
            }}
          />
          {labels.notInsured}
        </label>
        <label className="ow-choice">
          <input
            type="radio"
            name={`${name}-insured`}
            checked={insured}
            onChange={() => {
              setInsured(true)
              if (value === NOT_INSURED) onChange('')
            }}
          />
          {labels.insured}
        </label>
      </div>
      {insured && (
        <fieldset className="ow-issuers-group">
          <legend className="ow-visually-hidden">{labels.chooseIssuer}</legend>
          <div className="ow-issuers">
            {list.map((issuer) => {
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
                  {logo && <img src={logo} alt="" width={48} height={32} />}
                  <span>{issuer.name}</span>
                </label>
              )
            })}
            {loading && <p className="ow-muted ow-issuers-note">{labels.issuersLoading}</p>}
            {failed && <p className="ow-muted ow-issuers-note">{labels.issuersUnavailable}</p>}
          </div>
        </fieldset>
      )}
    </fieldset>
  )
}
