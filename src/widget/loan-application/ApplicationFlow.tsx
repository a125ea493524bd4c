/**
 * @module What a second look without a complete lead shows: the loan application, then the widget with the
 * lead it made; a lead the BFF refuses (fields to fix, or an applicant seen within the duplicate window)
 * brings the application back with what the visitor typed. Part of the application's chunk; the widget
 * comes from the caller (`widget`), so the script tag's chunk renders the bundle's own.
 */
import { type ComponentType, useEffect, useMemo, useRef, useState } from 'react'
import type { LeadInput } from '../../contract/lead.ts'
import { emitEvent } from '../events/emit-event.ts'
import type { OfferWidgetProps } from '../offer-widget-props.ts'
import { themeStyle } from '../theme.ts'
import type { OfferWidgetError } from '../widget-error.ts'
import { LoanApplication } from './LoanApplication.tsx'
import { mergeLoanLabels } from './loan-labels.ts'

export interface ApplicationFlowProps extends OfferWidgetProps {
  widget: ComponentType<OfferWidgetProps>
  /** The labels' language (the gate's, so this chunk carries no copy of the widget's labels). */
  lang: string
}

export function ApplicationFlow({ widget: Widget, lang, ...props }: ApplicationFlowProps) {
  const [applied, setApplied] = useState<LeadInput>()
  const [refusal, setRefusal] = useState<OfferWidgetError>()
  const submitted = useRef(false)
  const root = useRef<HTMLDivElement>(null)
  // The widget's own defaults speak of auto insurance: after a loan application, its heading and
  // progress line speak of loans, unless the page set them.
  const widgetLabels = useMemo(() => {
    const loan = mergeLoanLabels(props.labels)
    return { heading: loan.loanResultsHeading, searching: loan.loanSearching, ...props.labels }
  }, [props.labels])
  // After a submit the visitor lands on the results' heading, as after the insurance form.
  useEffect(() => {
    if (applied && !refusal && submitted.current) {
      submitted.current = false
      root.current?.querySelector<HTMLElement>('.ow-heading')?.focus()
    }
  }, [applied, refusal])

  if (applied && !refusal) {
    return (
      <div ref={root}>
        <Widget
          {...props}
          labels={widgetLabels}
          lead={applied}
          onError={(error) => {
            if (error.kind === 'validation' || error.status === 409) setRefusal(error)
            props.onError?.(error)
          }}
        />
      </div>
    )
  }
  return (
    <div
      className={props.className ? `ow-root ${props.className}` : 'ow-root'}
      lang={lang}
      data-ow-theme={props.theme ?? 'light'}
      data-ow-status="form"
      style={themeStyle(props.themeVariables)}
    >
      <LoanApplication
        endpoint={props.endpoint ?? ''}
        labels={props.labels}
        prefill={applied ?? props.lead}
        headingLevel={props.headingLevel ?? 2}
        nonce={props.nonce}
        serverErrors={refusal?.fieldErrors}
        duplicate={refusal?.status === 409}
        emit={(event) => emitEvent(props, event)}
        onSubmit={(lead) => {
          submitted.current = true
          setRefusal(undefined)
          setApplied(lead)
        }}
      />
    </div>
  )
}
