/**
 * @module The BFF's 400 `errors[]` for a submitted lead (`{ field: 'personalInformation.email', reason }`),
 * put on the fields that hold them by the paths the form's own rules use, each with a sentence for visitors
 * (the BFF's `reason` is for developers). A refused consent text (`legalInformation.fcraLanguage`) is one the
 * operator edited since the visitor saw it: the consent given was to the old text, so it must be given again.
 */
import type { LoanLabels } from './loan-labels.ts'
import type { LoanValues } from './loan-values.ts'
import { fieldOfPath, type LoanErrors, wrongSentence } from './validate-application.ts'

export interface ServerErrorsView {
  errors: LoanErrors
  /** The summary line when not the usual count: some error named no field of the application. */
  message: string | undefined
  /** A consent text was refused: fetch the texts again and uncheck the boxes. */
  consentChanged: boolean
}

export function readServerErrors(
  issues: readonly { field: string; reason: string }[],
  values: LoanValues,
  labels: LoanLabels,
): ServerErrorsView {
  const errors: LoanErrors = {}
  let unmapped = false
  let consentChanged = false
  for (const issue of issues) {
    const field = fieldOfPath(issue.field, values)
    const box = /^legalInformation\.(fcra|tcpa)Language$/.exec(issue.field)?.[1] as
      | 'fcra'
      | 'tcpa'
      | undefined
    if (box) {
      errors[box] = labels.loanConsentChanged
      consentChanged = true
    } else if (field === undefined) unmapped = true
    else errors[field] ??= wrongSentence(field, labels)
  }
  const none = Object.keys(errors).length === 0
  return { errors, message: none || unmapped ? labels.loanRefused : undefined, consentChanged }
}
