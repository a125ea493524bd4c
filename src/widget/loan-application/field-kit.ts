/**
 * @module What every field view of the application takes: the values, their errors, the labels, each
 * field's id, the setter, and the ARIA wiring of a control to its error (and hint).
 */
import type { LoanLabels } from './loan-labels.ts'
import type { LoanField, LoanValues } from './loan-values.ts'
import type { LoanErrors } from './validate-application.ts'

export interface FieldKit {
  labels: LoanLabels
  values: LoanValues
  errors: LoanErrors
  /** The control's id; its error is `${id}-error`, its hint `${id}-hint`. */
  id: (field: LoanField) => string
  /** Sets a value and clears that field's error. */
  set: <K extends LoanField>(field: K, value: LoanValues[K]) => void
}

/** `aria-invalid` and `aria-describedby` (the hint first, then the error) for a field's control. */
export function ariaOf(kit: FieldKit, field: LoanField, hint?: boolean) {
  const invalid = kit.errors[field] !== undefined
  const ids = [hint && `${kit.id(field)}-hint`, invalid && `${kit.id(field)}-error`].filter(Boolean)
  return {
    ...(invalid && { 'aria-invalid': true as const }),
    ...(ids.length > 0 && { 'aria-describedby': ids.join(' ') }),
  }
}
