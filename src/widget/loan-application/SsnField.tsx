/**
 * @module The Social Security number: masked (a password input, so it is not shown over a shoulder or in a
 * screen recording) with a toggle to show it as typed; digits only, drawn `###-##-####`; never autofilled or
 * saved by the browser (`autocomplete="off"`), never logged. Masked again whenever the step is drawn anew.
 */
import { useState } from 'react'
import { FieldError } from './FieldError.tsx'
import { ariaOf, type FieldKit } from './field-kit.ts'
import { formatSsn } from './loan-values.ts'

export function SsnField({ kit }: { kit: FieldKit }) {
  const [shown, setShown] = useState(false)
  const id = kit.id('ssn')
  return (
    <div className="ow-field">
      <label className="ow-label" htmlFor={id}>
        {kit.labels.loanSsn}
      </label>
      <p id={`${id}-hint`} className="ow-muted ow-loan-hint">
        {kit.labels.loanSsnHint}
      </p>
      <div className="ow-loan-ssn">
        <input
          id={id}
          className="ow-input"
          type={shown ? 'text' : 'password'}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={11}
          required
          value={kit.values.ssn}
          onChange={(event) => kit.set('ssn', formatSsn(event.target.value))}
          {...ariaOf(kit, 'ssn', true)}
        />
        <button
          type="button"
          className="ow-link ow-loan-reveal"
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
        >
          {kit.labels.loanSsnShow}
        </button>
      </div>
      <FieldError kit={kit} field="ssn" />
    </div>
  )
}
