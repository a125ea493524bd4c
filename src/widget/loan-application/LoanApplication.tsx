/**
 * @module The loan application of the second look (docs/partner-interface.md, "The lead"): the common
 * application, one step at a time, shown when `source="second-look"` has no complete lead. Loaded on demand
 * as a chunk of its own, so it imports only React, zod/mini, the contract and its own folder. Its result is
 * the lead, valid by `leadInputSchema`, carrying exactly the consent texts shown and the `consent` extension.
 */
import { useEffect, useId, useLayoutEffect, useMemo } from 'react'
import type { LeadInput } from '../../contract/lead.ts'
import type { OfferWidgetEvent } from '../events/widget-event.ts'
import { ConsentBoxes } from './ConsentBoxes.tsx'
import { injectSheet } from './inject-sheet.ts'
import { LoanFieldView, type StringField } from './LoanFieldView.tsx'
import { LoanProgress } from './LoanProgress.tsx'
import loanCss from './loan-application.css?inline'
import { type LoanLabels, mergeLoanLabels } from './loan-labels.ts'
import { LOAN_STEPS } from './loan-steps.ts'
import type { LeadPrefill } from './loan-values.ts'
import { useConsentTexts } from './useConsentTexts.ts'
import { useLoanForm } from './useLoanForm.ts'

export interface LoanApplicationProps {
  /** Base URL of the BFF; '' is the page's own origin. */
  endpoint: string
  /** The widget's `labels` prop as given (may hold other keys too); merged over DEFAULT_LOAN_LABELS. */
  labels?: Partial<LoanLabels> | undefined
  /** What the publisher already knows: any subset of the lead's fields (DeepPartial<LeadInput>), prefilled. */
  prefill?: LeadPrefill | undefined
  /** Level of the application's heading (2..5); its step headings use the next level. */
  headingLevel: number
  /** CSP nonce for the injected <style>. */
  nonce?: string | undefined
  /** Field problems the BFF answered to a submitted lead (400 `errors[]` of { field: 'personalInformation.email', reason }): marked on their fields, the application goes to the first step with one, focus on that field. */
  serverErrors?: readonly { field: string; reason: string }[] | undefined
  /**
   * The BFF refused the lead because this applicant applied within the duplicate window and that
   * application's offers have expired (409 `duplicate_applicant`): the application says so.
   */
  duplicate?: boolean | undefined
  /** True while the lead is being sent: the submit button says so and is not pressable twice. */
  submitting?: boolean | undefined
  /** The complete lead, valid by leadInputSchema, with legalInformation carrying EXACTLY the texts shown and the `consent` extension. */
  onSubmit: (lead: LeadInput) => void
  /** The application's form events (docs/events.md). */
  emit?: ((event: OfferWidgetEvent) => void) | undefined
}

// The sheet goes in before the first paint; there is no server render of this chunk to warn about.
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

export function LoanApplication(props: LoanApplicationProps) {
  const id = useId()
  const labels = useMemo(() => mergeLoanLabels(props.labels), [props.labels])
  const consent = useConsentTexts(props.endpoint)
  const submitting = props.submitting === true
  const { kit, step, summary, formRef, back, submit } = useLoanForm({
    id,
    labels,
    consent,
    prefill: props.prefill,
    serverErrors: props.serverErrors,
    submitting,
    onSubmit: props.onSubmit,
    emit: props.emit,
  })

  useBrowserLayoutEffect(() => {
    if (formRef.current) injectSheet(formRef.current, loanCss, props.nonce)
  }, [props.nonce])

  const level = Math.min(Math.max(Math.trunc(props.headingLevel) || 2, 2), 5)
  const Heading = `h${level}` as 'h2'
  const StepHeading = `h${level + 1}` as 'h3'
  const current = LOAN_STEPS[step] ?? LOAN_STEPS[0]
  const last = step === LOAN_STEPS.length - 1

  return (
    <form
      ref={formRef}
      className="ow-form ow-loan"
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-heading`}
      aria-busy={submitting || undefined}
    >
      <div>
        <Heading id={`${id}-heading`} className="ow-heading">
          {labels.loanHeading}
        </Heading>
        <p className="ow-intro ow-muted">{labels.loanIntro}</p>
        <div role="alert" className="ow-loan-summary">
          {props.duplicate ? (
            <p className="ow-form-error">{labels.loanDuplicate}</p>
          ) : (
            summary && <p className="ow-form-error">{summary}</p>
          )}
        </div>
      </div>
      <LoanProgress step={step + 1} total={LOAN_STEPS.length} labels={labels} />
      <section className="ow-loan-step" aria-labelledby={`${id}-step`}>
        <StepHeading id={`${id}-step`} className="ow-loan-step-heading" tabIndex={-1} data-ow-step-heading="">
          {current && labels[current.title]}
        </StepHeading>
        {current?.fields.map((field) =>
          field === 'fcra' ? (
            <ConsentBoxes key={field} kit={kit} consent={consent} />
          ) : field === 'tcpa' ? null : (
            <LoanFieldView key={field} kit={kit} field={field as StringField} />
          ),
        )}
      </section>
      <div className="ow-loan-nav">
        {step > 0 && (
          <button type="button" className="ow-button ow-loan-back" onClick={back}>
            {labels.loanBack}
          </button>
        )}
        <button
          type="submit"
          className="ow-button ow-loan-next"
          aria-disabled={(last && submitting) || undefined}
        >
          {last ? (submitting ? labels.loanSubmitting : labels.loanSubmit) : labels.loanNext}
        </button>
      </div>
    </form>
  )
}
