/**
 * @module The consent boxes, each beside the operator's text it consents to, shown in full: FCRA (required:
 * lenders may not check credit without it) and TCPA when the operator has one (optional). Never checked
 * until the visitor checks them. While the texts load, a placeholder of the same height as a typical pair
 * (nothing below jumps); when they fail, a retry, and the application cannot be sent.
 */
import type { ConsentText } from '../../contract/consent.ts'
import { FieldError } from './FieldError.tsx'
import { FieldLabel } from './FieldLabel.tsx'
import { ariaOf, type FieldKit } from './field-kit.ts'
import type { ConsentTextsState } from './useConsentTexts.ts'

interface ConsentBoxesProps {
  kit: FieldKit
  consent: ConsentTextsState & { retry: () => void }
}

export function ConsentBoxes({ kit, consent }: ConsentBoxesProps) {
  const { labels } = kit
  return (
    <fieldset className="ow-field ow-loan-consent">
      <legend className="ow-legend">{labels.loanConsent}</legend>
      {consent.status === 'loading' && (
        <div className="ow-loan-placeholder" aria-busy="true">
          <p className="ow-muted">{labels.loanConsentLoading}</p>
        </div>
      )}
      {consent.status === 'failed' && (
        <div className="ow-loan-placeholder">
          <p>{labels.loanConsentFailed}</p>
          <button type="button" className="ow-button" data-ow-retry="" onClick={consent.retry}>
            {labels.loanConsentRetry}
          </button>
        </div>
      )}
      {consent.status === 'ready' && (
        <>
          <ConsentBox kit={kit} field="fcra" text={consent.texts.fcra} />
          {consent.texts.tcpa && <ConsentBox kit={kit} field="tcpa" text={consent.texts.tcpa} optional />}
        </>
      )}
    </fieldset>
  )
}

function ConsentBox(props: { kit: FieldKit; field: 'fcra' | 'tcpa'; text: ConsentText; optional?: boolean }) {
  const { kit, field } = props
  const id = kit.id(field)
  return (
    <div className="ow-loan-box">
      <input
        id={id}
        type="checkbox"
        checked={kit.values[field]}
        onChange={(event) => kit.set(field, event.target.checked)}
        required={!props.optional}
        {...ariaOf(kit, field)}
      />
      <label htmlFor={id} className="ow-loan-consent-text">
        <FieldLabel text={props.text.text} optional={props.optional ? kit.labels.loanOptional : undefined} />
      </label>
      <FieldError kit={kit} field={field} />
    </div>
  )
}
