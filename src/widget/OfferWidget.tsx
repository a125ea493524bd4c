/**
 * @module `<OfferWidget>`: the form when data is missing, then live offers as partners answer. Owns its
 * QueryClient (a host page's is never touched), renders a placeholder on the server, and delivers its
 * own CSS unless told the host does.
 */
import type { QueryClient } from '@tanstack/react-query'
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { LeadInput } from '../contract/lead.ts'
import { arrangeOffers } from './arrange-offers.ts'
import { Disclaimers } from './Disclaimers.tsx'
import type { DisplayOffer } from './display-rules.ts'
import { emitEvent } from './events/emit-event.ts'
import { useOffersShown } from './events/useOffersShown.ts'
import type { OfferWidgetEvent } from './events/widget-event.ts'
import { type FieldErrors, formFieldOf } from './form-values.ts'
import { injectStyles } from './inject-styles.ts'
import { useInteractionHold } from './interaction-hold.ts'
import { DEFAULT_LABELS, type Labels } from './labels.ts'
import { OfferList } from './OfferList.tsx'
import type { OfferWidgetProps } from './offer-widget-props.ts'
import { pageTracker } from './pixel-tracker.ts'
import { createWidgetQueryClient } from './query-client.ts'
import { renderedPixelsOf, skippingRendered } from './rendered-pixels.ts'
import { SearchForm } from './SearchForm.tsx'
import { SearchProgress } from './SearchProgress.tsx'
import { Sponsored } from './Sponsored.tsx'
import { StableLayout } from './StableLayout.tsx'
import { FORM_FIELDS, type FormField, missingFields, type SearchData } from './search-input.ts'
import { searchRequestOf } from './search-request.ts'
import { lenderProgressOf, placesThatCanFill } from './second-look.ts'
import { type Disclaimer, disclaimersOnScreen } from './seen-partners.ts'
import widgetCss from './styles.css?inline'
import { themeStyle } from './theme.ts'
import { useAnnouncement } from './useAnnouncement.ts'
import { useIsClient } from './useIsClient.ts'
import { useOfferSearch } from './useOfferSearch.ts'

export type { OfferWidgetProps } from './offer-widget-props.ts'

export function OfferWidget(props: OfferWidgetProps) {
  // Created once per widget and never shared: remounts inside this widget reuse it, a host never sees it.
  const [client] = useState(createWidgetQueryClient)
  const isClient = useIsClient()
  // A search created on the server with its rate table renders whole on the server and hydrates as is;
  // anything else renders a placeholder there, and searches only in the browser.
  if (!isClient && !props.attach?.rateTable) {
    return (
      <div
        className={rootClass(props.className)}
        lang={props.labels?.lang ?? DEFAULT_LABELS.lang}
        data-ow-theme={props.theme ?? 'light'}
        aria-busy="true"
      >
        <p className="ow-muted">{props.labels?.loading ?? DEFAULT_LABELS.loading}</p>
      </div>
    )
  }
  return <WidgetBody {...props} client={client} />
}

function rootClass(extra: string | undefined): string {
  return extra ? `ow-root ${extra}` : 'ow-root'
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the widget's body: one render of its states (form, progress, list, empty, error) over one search (the search itself is offer-search.ts); splitting it costs bytes the script-tag bundle does not have (docs/decisions/0103-widget-core.md)
function WidgetBody(props: OfferWidgetProps & { client: QueryClient }) {
  const { client, endpoint = '', form = 'auto', preview = false } = props
  const headingLevel = props.headingLevel ?? 2
  const labels = useMemo(() => ({ ...DEFAULT_LABELS, ...props.labels }), [props.labels])
  const rootRef = useRef<HTMLDivElement>(null)
  const headingId = useId()
  // What to search for: one of three kinds (search-request.ts).
  const request = searchRequestOf(props)
  const attach = request.kind === 'attach' ? request.attach : undefined
  const given = (request.kind === 'search' && request.search) || {}
  // An attached search or a second-look lead comes whole from the publisher: no form, nothing to change.
  const fixed = request.kind !== 'search'

  const inject = props.injectStyles ?? true
  useLayoutEffect(() => {
    if (inject && rootRef.current) injectStyles(rootRef.current, widgetCss, props.nonce)
  }, [inject, props.nonce])

  const [submitted, setSubmitted] = useState<SearchData | null>(null)
  const [submission, setSubmission] = useState(0)
  const [editing, setEditing] = useState(false)
  // Where focus goes after the visitor's own action changed the view: the results after a submit, the
  // form's first field after "Change details". Never on the page's own first render.
  const [focusAfter, setFocusAfter] = useState<'results' | 'form' | undefined>(undefined)
  // A press inside, or one a moment ago: no card on screen moves (arrange-offers.ts).
  const held = useInteractionHold(rootRef)
  const secondLook = props.source === 'second-look'
  const wantsForm = !fixed && (form === 'always' || (form === 'auto' && !given.zipCode))
  // Not read with `attach` or a lead (search-request.ts).
  const search = submitted ?? (wantsForm ? null : given)

  // A lead reaches this body complete: ApplicationGate shows the application for anything less.
  const complete = props as typeof props & { lead?: LeadInput }
  const emit = (event: OfferWidgetEvent) => {
    emitEvent(props, event)
    // What the BFF cannot see of an offer search: what was shown and what clicked (docs/placements.md).
    if (event.type === 'offers_shown') result.measure({ shown: event.offers.map((offer) => offer.uuid) })
    if (event.type === 'offer_click') result.measure({ clicked: event.offer.uuid })
  }
  const result = useOfferSearch({ ...complete, search, submission, queryClient: client, onEvent: emit })
  const { status, offers, error } = result
  // The BFF refused this browser (a declared bot, 403): "Try again" would be refused again, forever.
  const refused = status === 'error' && error?.code === 'forbidden'

  // A 400 naming fields goes back to the form (unless the page said never), the fields marked inline with
  // a sentence for visitors from `labels`; the BFF's own words are for developers (console and onError).
  const serverErrors = useMemo(() => {
    if (status !== 'error' || error?.kind !== 'validation' || form === 'never' || fixed) {
      return undefined
    }
    const mapped: FieldErrors = {}
    let unmapped = false
    for (const issue of error.fieldErrors) {
      const field = formFieldOf(issue.field)
      if (field) mapped[field] ??= fieldMessage(field, labels)
      else unmapped = true
    }
    console.warn('offer-widget: the offer search refused these fields:', error.fieldErrors)
    return { mapped, message: unmapped || error.fieldErrors.length === 0 ? labels.searchRefused : undefined }
  }, [status, error, form, fixed, labels])

  const showForm = (wantsForm && !submitted) || serverErrors !== undefined || editing
  // The form can come back when the visitor (or the page, through the form) supplied the details.
  const canChange = !fixed && form !== 'never'
  // No offers, or an error with none on screen: the form shows under the message (docs, "No blank acres").
  const inlineForm =
    canChange && !showForm && ((status === 'complete' && offers.length === 0) || status === 'error')
  const formFields: FormField[] = useMemo(() => {
    const base = form === 'always' || editing ? [...FORM_FIELDS] : missingFields(given)
    const flagged = Object.keys(serverErrors?.mapped ?? {}) as FormField[]
    return FORM_FIELDS.filter((f) => base.includes(f) || flagged.includes(f))
  }, [form, given, serverErrors, editing])

  const initialOffers = props.initialOffers ?? 3
  const searchKey = `${result.search?.source}:${result.search?.uuid}`
  // "Show N more" asked, per search (a new search starts at `initialOffers` again). Held here, not in the
  // list, so the change re-renders StableLayout, which slides what it moves.
  const [showAll, setShowAll] = useState<string>()
  const places = showAll === searchKey ? Number.POSITIVE_INFINITY : initialOffers
  // The uuids on screen at the last render, per search: what a held list keeps in place.
  const onScreen = useRef<{ searchKey: string; uuids: string[] }>(undefined)
  const { shown } = arrangeOffers(
    offers,
    onScreen.current?.searchKey === searchKey ? onScreen.current.uuids : NO_UUIDS,
    held,
  )
  const visible = shown.slice(0, places)
  const visibleUuids = visible.map((offer) => offer.uuid)
  onScreen.current = { searchKey, uuids: visibleUuids }
  const searching = status === 'creating' || status === 'searching'
  const source = props.source ?? 'offer-search'
  const listed = !showForm && (offers.length > 0 || searching)
  useOffersShown(client, searchKey, listed ? visible : NO_OFFERS, source, props.onOffersShown, emit)
  const announcement = useAnnouncement(
    refused ? 'refused' : status,
    offers.length,
    visible,
    labels,
    result.failed,
  )
  // A server-rendered search's first cards carry their pixels as <img> tags (rendered-pixels.ts): fixed at
  // the first render, so the server's tags and the hydrated ones match and are never re-created.
  const [renderedPixels] = useState(() =>
    preview || !attach?.rateTable ? [] : renderedPixelsOf(offers.slice(0, initialOffers)),
  )
  const pageWide = props.pixelTracker ?? pageTracker()
  const tracker = useMemo(
    () => (preview ? undefined : skippingRendered(pageWide, renderedPixels)),
    [preview, pageWide, renderedPixels],
  )

  if (status === 'complete' && offers.length === 0 && props.emptyState === 'hide') return null

  // Skeletons for the places that can still fill (every place before the first rate table), up to the
  // visible limit; none once the search is over.
  const expected =
    status === 'creating' ? 99 : result.rateTable ? placesThatCanFill(result.rateTable, secondLook) : 0
  // A second look shows each partner's disclaimer on its own offer; an offer search shows the populated
  // disclaimer of every partner with an offer on screen (docs/offer-search-api.md rule 5; docs/offer-search-api.md#disclaimers).
  const disclaimers = secondLook ? NO_DISCLAIMERS : disclaimersOnScreen(result.disclaimers, visibleUuids)
  const changeButton = (
    <button
      type="button"
      className="ow-link"
      onClick={() => {
        setEditing(true)
        setFocusAfter('form')
      }}
    >
      {labels.changeDetails}
    </button>
  )

  const searchForm = (form: {
    fields: readonly FormField[]
    focusFirstField: boolean
    headingLevel: number
  }) => (
    <SearchForm
      fields={[...form.fields]}
      given={submitted ?? given}
      labels={labels}
      headingLevel={form.headingLevel}
      endpoint={endpoint}
      client={client}
      serverErrors={serverErrors?.mapped ?? NO_ERRORS}
      serverMessage={serverErrors?.message}
      focusFirstField={form.focusFirstField}
      emit={emit}
      onSubmit={(data) => {
        setFocusAfter('results')
        setEditing(false)
        setSubmitted(data)
        setSubmission((n) => n + 1)
      }}
    />
  )

  const Heading = `h${headingLevel}` as 'h2'
  return (
    <div
      ref={rootRef}
      className={rootClass(props.className)}
      lang={labels.lang}
      data-ow-theme={props.theme ?? 'light'}
      data-ow-status={showForm ? 'form' : status}
      style={themeStyle(props.themeVariables)}
    >
      {showForm ? (
        searchForm({ fields: formFields, focusFirstField: focusAfter === 'form', headingLevel })
      ) : (
        <section className="ow-results" aria-labelledby={headingId} aria-busy={searching}>
          <div className="ow-head">
            <Heading
              id={headingId}
              className="ow-heading"
              tabIndex={-1}
              ref={(heading) => {
                // After a submit the visitor lands on the results' heading; the status line follows it.
                if (heading && focusAfter === 'results') {
                  heading.focus()
                  setFocusAfter(undefined)
                }
              }}
            >
              {labels.heading}
            </Heading>
            {canChange && changeButton}
          </div>
          <Sponsored labels={labels} disclosureUrl={props.disclosureUrl} emit={emit} />
          {/* Kept once the search ends, as its status line (an error's too): removing it would pull everything up. */}
          {(searching || status === 'complete' || status === 'error') && (
            <SearchProgress
              phase={searching ? (status === 'searching' ? 'searching' : 'starting') : 'done'}
              error={status === 'error'}
              refused={refused}
              answered={result.progress.answered}
              total={result.progress.total}
              offerCount={offers.length}
              failed={result.failed}
              lenders={secondLook ? lenderProgressOf(result.rateTable, result.progress) : undefined}
              labels={labels}
            />
          )}
          <StableLayout>
            {(offers.length > 0 || searching) && (
              <OfferList
                visible={visible}
                hidden={shown.length - visible.length}
                expected={searching ? expected : 0}
                places={places}
                onShowAll={() => setShowAll(searchKey)}
                labels={labels}
                headingLevel={headingLevel + 1}
                idBase={headingId}
                tracker={tracker}
                source={source}
                onOfferClick={props.onOfferClick}
                emit={emit}
              />
            )}
            {status === 'complete' && offers.length === 0 && (
              <div className="ow-empty">
                <p>{labels.noOffers}</p>
                {canChange && <p>{labels.noOffersNext}</p>}
              </div>
            )}
            {status === 'error' && !refused && (
              <div className="ow-error">
                <button type="button" className="ow-button" onClick={result.retry}>
                  {labels.tryAgain}
                </button>
              </div>
            )}
            {/* With nothing to show, the visitor's next step in place: their details, ready to change. */}
            {inlineForm &&
              searchForm({ fields: FORM_FIELDS, focusFirstField: false, headingLevel: headingLevel + 1 })}
            <Disclaimers
              disclaimers={disclaimers}
              offers={visible}
              idBase={headingId}
              labels={labels}
              headingLevel={headingLevel + 1}
            />
          </StableLayout>
        </section>
      )}
      {renderedPixels.length > 0 && (
        <div hidden>
          {renderedPixels.map((pixel) => (
            <img
              key={`${pixel.offerUuid} ${pixel.url}`}
              src={pixel.url}
              alt=""
              width={1}
              height={1}
              // Low priority: beacons must not compete with the page's own images (nor get React's preload hints).
              // No `referrerPolicy` here (the page's own, by default strict-origin-when-cross-origin): Firefox's
              // speculative parser fetches a cross-origin <img> that names one a second time, two impressions.
              fetchPriority="low"
            />
          ))}
        </div>
      )}
      <div className="ow-visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </div>
  )
}

const NO_ERRORS: FieldErrors = {}
const NO_UUIDS: string[] = []
const NO_OFFERS: DisplayOffer[] = []
const NO_DISCLAIMERS: Disclaimer[] = []

/** The visitor's sentence for a field the BFF refused. */
function fieldMessage(field: FormField, labels: Labels): string {
  return field === 'isHomeOwner' || field === 'isMilitary' ? labels.choiceInvalid : labels[`${field}Invalid`]
}
