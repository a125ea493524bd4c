/**
 * @module The widget, or the loan application first: a second look with no complete lead (one with FCRA
 * consent, from the publisher's own application) shows the widget's own application, a chunk of its own
 * (load-application.ts) fetched only here. The npm `<OfferWidget>` and the script tag's mount both render
 * through this gate, so the rule is written once; the application and what follows it are
 * loan-application/ApplicationFlow.tsx.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { DEFAULT_LABELS } from './labels.ts'
import { loadApplication } from './load-application.ts'
import type { ApplicationFlowProps } from './loan-application/ApplicationFlow.tsx'
import { OfferWidget } from './OfferWidget.tsx'
import type { OfferWidgetProps } from './offer-widget-props.ts'
import { searchRequestOf } from './search-request.ts'

export function ApplicationGate(props: OfferWidgetProps) {
  // What to show is the one rule of search-request.ts; a lead with FCRA consent is complete.
  const request = searchRequestOf(props)
  const wanted = request.kind === 'lead' && request.lead?.legalInformation?.consentsToFcra !== 'true'
  // `undefined` while the chunk loads, `null` when it could not (the loader forgets a failure: a retry loads again).
  const [Flow, setFlow] = useState<ComponentType<ApplicationFlowProps> | null>()
  useEffect(() => {
    if (wanted && Flow === undefined) {
      loadApplication().then(
        (chunk) => setFlow(() => chunk.ApplicationFlow),
        () => setFlow(null),
      )
    }
  }, [wanted, Flow])
  const lang = props.labels?.lang ?? DEFAULT_LABELS.lang
  if (!wanted) return <OfferWidget {...props} />
  if (Flow) return <Flow {...props} widget={OfferWidget} lang={lang} />
  // Empty while the chunk loads (it is small, and on the BFF that served the widget).
  return (
    <div
      className="ow-root"
      lang={lang}
      data-ow-theme={props.theme ?? 'light'}
      aria-busy={Flow === undefined}
    >
      {Flow === null && (
        <div className="ow-error" role="alert">
          <p>{props.labels?.error ?? DEFAULT_LABELS.error}</p>
          <button type="button" className="ow-button" onClick={() => setFlow(undefined)}>
            {props.labels?.tryAgain ?? DEFAULT_LABELS.tryAgain}
          </button>
        </div>
      )}
    </div>
  )
}
