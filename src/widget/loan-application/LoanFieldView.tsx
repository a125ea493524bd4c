/**
 * @module One field of the application as its spec (loan-fields.ts) draws it: a labelled text input or
 * select, a choice as radios in a fieldset, or the SSN; its error under it. Nothing when the spec's
 * `shownWhen` does not hold (the income amount before its kind is chosen).
 */

import { FieldError } from './FieldError.tsx'
import { FieldLabel } from './FieldLabel.tsx'
import { ariaOf, type FieldKit } from './field-kit.ts'
import { LOAN_FIELDS, optionsOf, type RadioSpec, type SelectSpec, type TextSpec } from './loan-fields.ts'
import type { LoanField } from './loan-values.ts'
import { SsnField } from './SsnField.tsx'

/** The fields with a string value: every one but the consent boxes (ConsentBoxes.tsx). */
export type StringField = Exclude<LoanField, 'fcra' | 'tcpa'>

export function LoanFieldView({ kit, field }: { kit: FieldKit; field: StringField }) {
  const spec = LOAN_FIELDS[field]
  if ('shownWhen' in spec && spec.shownWhen && !spec.shownWhen(kit.values)) return null
  switch (spec.kind) {
    case 'text':
      return <TextFieldView kit={kit} field={field} spec={spec} />
    case 'select':
      return <SelectFieldView kit={kit} field={field} spec={spec} />
    case 'radio':
      return <RadioFieldView kit={kit} field={field} spec={spec} />
    case 'ssn':
      return <SsnField kit={kit} />
    default:
      return null
  }
}

interface ViewProps<S> {
  kit: FieldKit
  field: StringField
  spec: S
}

function TextFieldView({ kit, field, spec }: ViewProps<TextSpec>) {
  const input = (
    <input
      id={kit.id(field)}
      className="ow-input"
      type={spec.type ?? 'text'}
      inputMode={spec.inputMode}
      autoComplete={spec.autoComplete}
      maxLength={spec.maxLength}
      required={!spec.optional}
      value={kit.values[field] as string}
      onChange={(event) => kit.set(field, event.target.value)}
      {...ariaOf(kit, field)}
    />
  )
  return (
    <div className="ow-field">
      <label className="ow-label" htmlFor={kit.id(field)}>
        <FieldLabel text={kit.labels[spec.label]} optional={spec.optional && kit.labels.loanOptional} />
      </label>
      {spec.money ? (
        <div className="ow-loan-money">
          <span aria-hidden="true">{kit.labels.loanDollar}</span>
          {input}
        </div>
      ) : (
        input
      )}
      <FieldError kit={kit} field={field} />
    </div>
  )
}

function SelectFieldView({ kit, field, spec }: ViewProps<SelectSpec>) {
  return (
    <div className="ow-field">
      <label className="ow-label" htmlFor={kit.id(field)}>
        <FieldLabel text={kit.labels[spec.label]} optional={spec.optional && kit.labels.loanOptional} />
      </label>
      <select
        id={kit.id(field)}
        className="ow-select"
        autoComplete={spec.autoComplete}
        required={!spec.optional}
        value={kit.values[field] as string}
        onChange={(event) => kit.set(field, event.target.value)}
        {...ariaOf(kit, field)}
      >
        <option value="">{kit.labels.loanChoose}</option>
        {optionsOf(spec, kit.labels).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <FieldError kit={kit} field={field} />
    </div>
  )
}

/** Radios: the choice is the field (`incomeKind`, `creditKind`); each radio carries its error's wiring. */
function RadioFieldView({ kit, field, spec }: ViewProps<RadioSpec>) {
  return (
    <fieldset className="ow-field">
      <legend className="ow-legend">{kit.labels[spec.label]}</legend>
      <div className="ow-choices">
        {spec.options.map(([value, key]) => (
          <label key={value} className="ow-choice">
            <input
              type="radio"
              name={kit.id(field)}
              value={value}
              checked={kit.values[field] === value}
              onChange={() => kit.set(field, value as never)}
              {...ariaOf(kit, field)}
            />
            {kit.labels[key]}
          </label>
        ))}
      </div>
      <FieldError kit={kit} field={field} />
    </fieldset>
  )
}
