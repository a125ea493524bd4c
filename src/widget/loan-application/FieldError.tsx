/** @module A field's error, under it, with the id its control's `aria-describedby` names. */
import type { FieldKit } from './field-kit.ts'
import type { LoanField } from './loan-values.ts'

export function FieldError({ kit, field }: { kit: FieldKit; field: LoanField }) {
  const error = kit.errors[field]
  if (error === undefined) return null
  return (
    <p id={`${kit.id(field)}-error`} className="ow-field-error">
      {error}
    </p>
  )
}
