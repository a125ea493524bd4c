/**
 * @module The short form shown when the page lacks what a search needs. Asks only for the given fields,
 * validates inline, and shows the BFF's field errors next to the field they name.
 */
import type { QueryClient } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
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

/** What a field's control takes from its field: the id its label points at, and the invalid state. */
interface ControlProps {
  id: string
  'aria-invalid'?: true
  'aria-describedby'?: string
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
  onSubmit: (data: SearchData) => void
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the search form's fields in their reading order, one JSX tree; to be split by field group (issue 34, left)
export function SearchForm(props: SearchFormProps) {
  const { fields, labels } = props
  const id = useId()
  const [values, setValues] = useState<FormValues>(() => toFormValues(props.given))
  const [errors, setErrors] = useState<FieldErrors>(props.serverErrors)
  const [focusToken, setFocusToken] = useState(0)
  const formRef = useRef<HTMLFormElement>(null)
  const issuers = useIssuers(props.endpoint, fields.includes('currentIssuer'), props.client)

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

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = validateForm(values, fields, labels)
    setErrors(found)
    if (Object.values(found).some(Boolean)) {
      setFocusToken((n) => n + 1)
      return
    }
    props.onSubmit(fromFormValues(values, props.given))
  }

  const fieldId = (field: FormField) => `${id}-${field}`
  const errorOf = (field: FormField) =>
    errors[field] ? (
      <p id={`${fieldId(field)}-error`} className="ow-field-error">
        {errors[field]}
      </p>
    ) : null
  const invalid = (field: FormField) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${fieldId(field)}-error` } : {}
  const optional = <span className="ow-muted">{labels.optional}</span>
  const Heading = `h${Math.min(props.headingLevel, 6)}` as 'h2'
  const hasErrors = Object.values(errors).some(Boolean) || props.serverMessage !== undefined

  /** A labelled control with its error: `control` gets the id and the invalid state to spread. */
  const field = (name: FormField, label: ReactNode, control: (props: ControlProps) => ReactNode) =>
    fields.includes(name) && (
      <div className="ow-field">
        <label className="ow-label" htmlFor={fieldId(name)}>
          {label}
        </label>
        {control({ id: fieldId(name), ...invalid(name) })}
        {errorOf(name)}
      </div>
    )

  const yesNo = (field: 'isHomeOwner' | 'isMilitary', legend: string) => (
    <fieldset className="ow-field">
      <legend className="ow-legend">
        {legend} {optional}
      </legend>
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

  return (
    <form ref={formRef} className="ow-form" noValidate onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <div>
        <Heading id={`${id}-heading`} className="ow-heading">
          {labels.formHeading}
        </Heading>
        <p className="ow-intro ow-muted">{labels.formIntro}</p>
      </div>
      {hasErrors && <p className="ow-form-error">{props.serverMessage ?? labels.formErrors}</p>}
      {field('zipCode', labels.zipCode, (control) => (
        <input
          {...control}
          className="ow-input"
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          required
          aria-required="true"
          value={values.zipCode}
          onChange={(e) => set('zipCode', e.target.value)}
        />
      ))}
      {field(
        'dateOfBirth',
        <>
          {labels.dateOfBirth} {optional}
        </>,
        (control) => (
          <input
            {...control}
            className="ow-input"
            type="date"
            autoComplete="bday"
            value={values.dateOfBirth}
            onChange={(e) => set('dateOfBirth', e.target.value)}
          />
        ),
      )}
      {fields.includes('currentIssuer') && (
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
      {fields.includes('currentIssuer') && errorOf('currentIssuer')}
      {field(
        'numberOfVehicles',
        <>
          {labels.numberOfVehicles} {optional}
        </>,
        (control) => (
          <select
            {...control}
            className="ow-select"
            value={values.numberOfVehicles}
            onChange={(e) => set('numberOfVehicles', e.target.value)}
          >
            <option value="">{labels.choose}</option>
            {[1, 2, 3, 4, 5, 6].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        ),
      )}
      {fields.includes('isHomeOwner') && yesNo('isHomeOwner', labels.isHomeOwner)}
      {fields.includes('isMilitary') && yesNo('isMilitary', labels.isMilitary)}
      <div>
        <button type="submit" className="ow-button">
          {labels.submit}
        </button>
      </div>
    </form>
  )
}
