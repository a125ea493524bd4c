/**
 * @module The application's state over its pure rules: values, errors, the step, the summary line, and where
 * focus goes after the visitor's own action (the new step's heading, or the first field in error). Next
 * judges only the step's fields; submit judges them all and goes to the first step with an error. Reports
 * the form's events (docs/events.md) as the search form does: view, first change, each field refused, sent.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { LeadInput } from '../../contract/lead.ts'
import { useFormEvents } from '../events/useFormEvents.ts'
import type { OfferWidgetEvent } from '../events/widget-event.ts'
import { formatLabel } from '../labels.ts'
import { readConsentContext } from './consent-context.ts'
import type { FieldKit } from './field-kit.ts'
import type { LoanLabels } from './loan-labels.ts'
import { ALL_LOAN_FIELDS, firstStepWith, LOAN_STEPS } from './loan-steps.ts'
import { type LeadPrefill, type LoanField, type LoanValues, toLoanValues } from './loan-values.ts'
import { readServerErrors } from './server-errors.ts'
import type { ConsentTextsState } from './useConsentTexts.ts'
import { type LoanErrors, validateApplication } from './validate-application.ts'

export interface LoanFormOptions {
  id: string
  labels: LoanLabels
  consent: ConsentTextsState & { retry: () => void }
  prefill: LeadPrefill | undefined
  serverErrors: readonly { field: string; reason: string }[] | undefined
  submitting: boolean
  onSubmit: (lead: LeadInput) => void
  emit?: ((event: OfferWidgetEvent) => void) | undefined
}

function withoutFields(errors: LoanErrors, fields: readonly LoanField[]): LoanErrors {
  const kept = { ...errors }
  for (const field of fields) delete kept[field]
  return kept
}

/** Where focus goes after a render: `n` makes each request new, so the same target twice moves it twice. */
type Focus = { on: 'heading' | 'invalid' | 'retry'; n: number }

// long-function: one form's state (values, errors, step, focus) and its handlers, which all read and write it; each handler is short
export function useLoanForm(options: LoanFormOptions) {
  const { labels, consent } = options
  const [values, setValues] = useState<LoanValues>(() => toLoanValues(options.prefill))
  const [errors, setErrors] = useState<LoanErrors>({})
  const [step, setStep] = useState(0)
  const [summary, setSummary] = useState<string>()
  const [focus, setFocus] = useState<Focus>()
  const formRef = useRef<HTMLFormElement>(null)
  const [start, refuse, send] = useFormEvents('application', options.emit)
  const valuesRef = useRef(values)
  valuesRef.current = values
  const moveFocus = (on: Focus['on']) => setFocus((f) => ({ on, n: (f?.n ?? 0) + 1 }))

  useEffect(() => {
    const form = formRef.current
    if (!focus || !form) return
    const selector = {
      heading: '[data-ow-step-heading]',
      invalid: '[aria-invalid="true"]',
      retry: '[data-ow-retry]',
    }
    form.querySelector<HTMLElement>(selector[focus.on])?.focus()
  }, [focus])

  /**
   * Shows `found` on the first step holding one and focuses that field. `judged`: the fields whose errors
   * `found` replaces (others stay: the BFF's on a later step are still true).
   */
  const fail = (found: LoanErrors, judged: readonly LoanField[], message?: string) => {
    const fields = Object.keys(found) as LoanField[]
    for (const field of fields) refuse(field, valuesRef.current[field])
    const at = firstStepWith(fields)
    setErrors((e) => ({ ...withoutFields(e, judged), ...found }))
    if (at >= 0) setStep(at)
    const count = at >= 0 ? (LOAN_STEPS[at]?.fields.filter((f) => found[f] !== undefined).length ?? 0) : 0
    const many = count === 1 ? labels.loanErrorsOne : labels.loanErrorsMany
    setSummary(message ?? (count === 0 ? labels.loanRefused : formatLabel(many, { count })))
    moveFocus(at >= 0 ? 'invalid' : 'heading')
  }

  // The BFF refused the submitted lead: its fields marked, on the first step holding one (server-errors.ts).
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new answer of the BFF only; values and labels are read as they are then
  useEffect(() => {
    if (!options.serverErrors || options.serverErrors.length === 0) return
    const view = readServerErrors(options.serverErrors, valuesRef.current, labels)
    if (view.consentChanged) {
      setValues((v) => ({ ...v, fcra: false, tcpa: false }))
      consent.retry()
    }
    fail(view.errors, ALL_LOAN_FIELDS, view.message)
  }, [options.serverErrors])

  const set: FieldKit['set'] = (field, value) => {
    start(field)
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => (e[field] === undefined ? e : { ...e, [field]: undefined }))
  }

  const goTo = (index: number) => {
    setStep(index)
    setSummary(undefined)
    moveFocus('heading')
  }

  const back = () => goTo(Math.max(0, step - 1))

  const submitAll = () => {
    if (options.submitting) return
    if (consent.status !== 'ready') {
      setSummary(consent.status === 'failed' ? labels.loanConsentFailed : labels.loanConsentLoading)
      moveFocus('retry')
      return
    }
    const check = validateApplication(values, ALL_LOAN_FIELDS, labels, { texts: consent.texts })
    if (!check.lead) return fail(check.errors, ALL_LOAN_FIELDS)
    const context = readConsentContext(formRef.current, options.prefill?.consent)
    send()
    options.onSubmit(context ? { ...check.lead, consent: context } : check.lead)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (step === LOAN_STEPS.length - 1) return submitAll()
    const fields = LOAN_STEPS[step]?.fields ?? []
    const check = validateApplication(values, fields, labels, { texts: consent.texts })
    if (Object.keys(check.errors).length > 0) return fail(check.errors, fields)
    setErrors((e) => withoutFields(e, fields))
    goTo(step + 1)
  }

  const kit: FieldKit = { labels, values, errors, set, id: (field) => `${options.id}-${field}` }
  return { kit, step, summary, formRef, back, submit }
}
