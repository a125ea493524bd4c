/**
 * @module The short form shown when the page lacks what a search needs. Asks only for the given fields,
 * validates inline, and shows the BFF's field errors next to the field they name. Reports its view, the
 * visitor's first change, a sent form and each field a check refused (docs/events.md), never a value.
 */
import type { QueryClient } from '@tanstack/react-query'
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useFormEvents } from './events/useFormEvents.ts'
import type { OfferWidgetEvent } from './events/widget-event.ts'
import {
  type FieldErrors,
  type FormValues,
  fromFormValues,
  toFormValues,
  validateForm,
  type YesNo,
} from './form-values.ts'
import { IssuerPicker } from './IssuerPicker.tsx'
import type { Labels } from './labels.ts'
import type { FormField, SearchData } from './search-input.ts'
import { useIssuers } from './useIssuers.ts'

/** What a field's control takes from its field: the id its label points at, the invalid state, the value. */
interface ControlProps {
  id: string
  'aria-invalid'?: true
  'aria-describedby'?: string
  value: string
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void
}

export interface SearchFormProps {
  fields: readonly FormField[]
  given: SearchData
  labels: Labels
  headingLevel: number
  endpoint: string
  client: QueryClient
  /** Errors from the BFF, already mapped onto fields. */
  serverErrors: FieldErrors
  /** BFF errors that name no form field. */
  serverMessage: string | undefined
  /** Focus the first field when the form appears (the visitor asked to change their details). */
  focusFirstField?: boolean
  emit: (event: OfferWidgetEvent) => void
  onSubmit: (data: SearchData) => void
}

// long-function: one form's markup, field by field in the order a visitor fills it
export function SearchForm(props: SearchFormProps) {
  const { fields, labels } = props
  const id = useId()
  const [values, setValues] = useState<FormValues>(() => toFormValues(props.given))
  const [errors, setErrors] = useState<FieldErrors>(props.serverErrors)
  const [focusToken, setFocusToken] = useState(0)
  const formRef = useRef<HTMLFormElement>(null)
  const [start, refuse, send] = useFormEvents('search', props.emit)
  const asksIssuer = fields.includes('currentIssuer')
  const issuers = useIssuers(props.endpoint, asksIssuer, props.client)

  useEffect(() => setErrors(props.serverErrors), [props.serverErrors])

  // biome-ignore lint/correctness/useExhaustiveDependencies: on appearing only, never on a later render
  useEffect(() => {
    if (props.focusFirstField) formRef.current?.querySelector<HTMLElement>('input, select')?.focus()
  }, [])

  // After a failed submit, move focus to the first field in error so keyboard and screen reader users land on it.
  useEffect(() => {
    if (focusToken === 0) return
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [focusToken])

  const set: SetValue = (key, value) => {
    start(key)
    setValues((v) => ({ ...v, [key]: value }))
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = validateForm(values, fields, labels)
    setErrors(found)
    const refused = Object.keys(found) as FormField[]
    for (const field of refused) refuse(field, values[field])
    if (refused.length > 0) {
      setFocusToken((n) => n + 1)
      return
    }
    send()
    props.onSubmit(fromFormValues(values, props.given))
  }

  const [fieldId, errorOf, field, yesNo] = fieldParts(id, fields, labels, values, errors, set)
  const Heading = `h${Math.min(props.headingLevel, 6)}` as 'h2'
  const hasErrors = Object.values(errors).some(Boolean) || props.serverMessage !== undefined

  return (
    <form ref={formRef} className="ow-form" noValidate onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <div>
        <Heading id={`${id}-heading`} className="ow-heading">
          {labels.formHeading}
        </Heading>
        <p className="ow-intro ow-muted">{labels.formIntro}</p>
      </div>
      {hasErrors && <p className="ow-form-error">{props.serverMessage ?? labels.formErrors}</p>}
      {field('zipCode', zipCodeInput)}
      {field('dateOfBirth', dateOfBirthInput, 'optional')}
      {asksIssuer && (
        <IssuerPicker
          name={fieldId('currentIssuer')}
          value={values.currentIssuer}
          onChange={(value) => set('currentIssuer', value)}
          issuers={issuers.data}
          loading={issuers.isPending}
          failed={issuers.isError}
          labels={labels}
        />
      )}
      {asksIssuer && errorOf('currentIssuer')}
      {field('numberOfVehicles', vehiclesSelect, 'optional')}
      {yesNo('isHomeOwner')}
      {yesNo('isMilitary')}
      <div>
        <button type="submit" className="ow-button">
          {labels.submit}
        </button>
      </div>
    </form>
  )
}

/** Sets one of the form's values, and clears that field's error. */
type SetValue = <K extends keyof FormValues>(key: K, value: FormValues[K]) => void

/** A field's control: it spreads what its field gives it (`ControlProps`), and adds its own attributes. */
type Control = (props: ControlProps, labels: Labels) => ReactNode

/**
 * What the form's fields are drawn with, over its current state: `[fieldId, errorOf, field, yesNo]`, a
 * field's id, its error, a labelled control with its error, a yes/no question. Outside `SearchForm` to keep
 * it short; a tuple, not an object, as its names would stay in the script-tag bundle (whose budget is tight).
 */
function fieldParts(
  id: string,
  fields: readonly FormField[],
  labels: Labels,
  values: FormValues,
  errors: FieldErrors,
  set: SetValue,
) {
  const fieldId = (field: FormField) => `${id}-${field}`
  const errorOf = (field: FormField) =>
    errors[field] ? (
      <p id={`${fieldId(field)}-error`} className="ow-field-error">
        {errors[field]}
      </p>
    ) : null
  const invalid = (field: FormField) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${fieldId(field)}-error` } : {}
  /** The field's label, "(optional)" after it for a field the visitor may leave blank. */
  const label = (field: FormField, optional?: 'optional') =>
    optional ? (
      <>
        {labels[field]} <span className="ow-muted">{labels.optional}</span>
      </>
    ) : (
      labels[field]
    )

  /** A labelled control with its error, when the form asks for the field. */
  const field = (
    name: 'zipCode' | 'dateOfBirth' | 'numberOfVehicles',
    control: Control,
    optional?: 'optional',
  ) =>
    fields.includes(name) && (
      <div className="ow-field">
        <label className="ow-label" htmlFor={fieldId(name)}>
          {label(name, optional)}
        </label>
        {control(
          {
            id: fieldId(name),
            ...invalid(name),
            value: values[name],
            onChange: (e) => set(name, e.target.value),
          },
          labels,
        )}
        {errorOf(name)}
      </div>
    )

  /** A yes/no question (optional) as two radios, when the form asks it. */
  const yesNo = (field: 'isHomeOwner' | 'isMilitary') =>
    fields.includes(field) && (
      <fieldset className="ow-field">
        <legend className="ow-legend">{label(field, 'optional')}</legend>
        <div className="ow-choices">
          {(['yes', 'no'] as const).map((choice) => (
            <label key={choice} className="ow-choice">
              <input
                type="radio"
                name={fieldId(field)}
                value={choice}
                checked={values[field] === choice}
                onChange={() => set(field, choice as YesNo)}
              />
              {choice === 'yes' ? labels.yes : labels.no}
            </label>
          ))}
        </div>
        {errorOf(field)}
      </fieldset>
    )
  return [fieldId, errorOf, field, yesNo] as const
}

const zipCodeInput: Control = (control) => (
  <input
    {...control}
    className="ow-input"
    type="text"
    inputMode="numeric"
    autoComplete="postal-code"
    maxLength={10}
    required
    aria-required="true"
  />
)

const dateOfBirthInput: Control = (control) => (
  <input {...control} className="ow-input" type="date" autoComplete="bday" />
)

const vehiclesSelect: Control = (control, labels) => (
  <select {...control} className="ow-select">
    <option value="">{labels.choose}</option>
    {[1, 2, 3, 4, 5, 6].map((n) => (
      <option key={n} value={String(n)}>
        {n}
      </option>
    ))}
  </select>
)
