/**
 * @module The search without a framework: create (or attach to) one search, poll it once a second inside
 * its window, and derive status, offers, disclaimers and progress. Two query-core `QueryObserver`s on the
 * widget's private client hold the state machine, as under react-query; `useOfferSearch` adapts it to
 * React with `useSyncExternalStore`, anything else subscribes. docs/decisions/0103-widget-core.md; the
 * rules themselves are in poll-policy.ts, display-rules.ts, seen-partners.ts and search-status.ts.
 */
import {
  notifyManager,
  type QueryClient,
  QueryObserver,
  type QueryObserverOptions,
  type QueryObserverResult,
  replaceEqualDeep,
} from '@tanstack/query-core'
import type { LeadInput } from '../contract/lead.ts'
import type { SearchMeasure } from '../contract/placement.ts'
import type { RateTable } from '../contract/rate-table.ts'
import { createSearch, type OfferSource, pollSearch, sendMeasure } from './bff-client.ts'
import { type DisplayOffer, toDisplayOffers } from './display-rules.ts'
import type { OfferWidgetEvent } from './events/widget-event.ts'
import { idempotencyKeyFor } from './lead-key.ts'
import { withSources } from './offer-sources.ts'
import { firstTime } from './once.ts'
import { nextPollInterval, pollWindowMs, scheduledRetryDelay, shouldRetryPoll } from './poll-policy.ts'
import { createWidgetQueryClient } from './query-client.ts'
import { type SearchData, toSearchInput } from './search-input.ts'
import { type AttachedSearch, searchRequestOf } from './search-request.ts'
import { deriveStatus, type SearchStatus } from './search-status.ts'
import {
  type Disclaimer,
  disclaimersToShow,
  mergeSeenPartners,
  progressOf,
  type SeenPartner,
} from './seen-partners.ts'
import { OfferWidgetError } from './widget-error.ts'

export interface SearchCreatedEvent {
  uuid: string
  source: OfferSource
}

export interface SearchCompleteEvent {
  uuid: string
  source: OfferSource
  offerCount: number
  /** True when the 15 s window closed (or polling failed) before every partner answered. */
  incomplete: boolean
}

export interface OfferSearchOptions {
  /** Base URL of the BFF, e.g. `https://publisher.example`; `''` (default) is the page's own origin. */
  endpoint?: string
  /** Which BFF resource to search: `offer-search` (default) or `second-look`. Both poll the same way. */
  source?: OfferSource
  /** What to search for. `undefined` or `null`: nothing is sent yet (status `idle`). */
  search?: SearchData | null
  /**
   * The loan lead (docs/partner-interface.md) to submit when `source` is `second-look`; `search` does not apply there. The
   * BFF validates it and takes session information from the request, never from the lead.
   */
  lead?: LeadInput | null
  /** Poll a search created on the publisher's server instead of creating one. Wins over `search`. */
  attach?: AttachedSearch | null
  /** Bump to submit the same data again as a new search (the form does this on every submit). */
  submission?: number
  /** Previews are never tracked: links use `unmonetizedUrl`, and no measure is sent. */
  preview?: boolean
  /** The publisher's placement id, sent with the search or lead (docs/placements.md). */
  placement?: string
  /** The client to keep the search in, read once. Default: a private one created for this search. */
  queryClient?: QueryClient
  onSearchCreated?: (event: SearchCreatedEvent) => void
  onComplete?: (event: SearchCompleteEvent) => void
  onError?: (error: OfferWidgetError) => void
  /** The same three moments as events of the widget's contract (docs/events.md): `search_created`, `search_complete`, `error`. */
  onEvent?: (event: OfferWidgetEvent) => void
}

export interface OfferSearchResult {
  status: SearchStatus
  /** Active offers in rank order, links and images already checked. */
  offers: DisplayOffer[]
  /**
   * Populated disclaimers of every partner seen during the search, each once, with the offers it goes with
   * (the widget shows one while one of its offers is on screen).
   */
  disclaimers: Disclaimer[]
  progress: { answered: number; total: number }
  error: OfferWidgetError | null
  incomplete: boolean
  /** Ended because polling failed for good while offers were on screen (they stay). */
  failed: boolean
  /** The search being shown, once created or attached. */
  search: SearchCreatedEvent | null
  /** The latest rate table as received (validated). */
  rateTable: RateTable | undefined
  /** Starts over: a new POST (or a fresh 15 s window for an attached search). */
  retry: () => void
  /**
   * Tells the BFF what an offer search showed or which offer was clicked (docs/placements.md); nothing for a
   * second look (the BFF sees its impressions and clicks) or a preview.
   */
  measure: (measure: SearchMeasure) => void
}

/** One search's state, as query-core's `QueryObserver` is one query's. */
export interface OfferSearch {
  /**
   * Calls `listener` (no argument) after changes of `getSnapshot()`, batched through query-core's
   * `notifyManager`; returns the unsubscribe.
   */
  subscribe(listener: () => void): () => void
  /** The result for the options last set; the same object until something changes. */
  getSnapshot(): OfferSearchResult
  /** The result these options would give now, without applying them: what a render shows. */
  getOptimisticResult(options: OfferSearchOptions): OfferSearchResult
  /** Applies new options; an equal search keeps its request, a new one (or a new `submission`) starts. */
  setOptions(options: OfferSearchOptions): void
  /**
   * Calls `onSearchCreated`, `onComplete` and `onError` for what the snapshot shows, each once per event
   * per client (StrictMode, re-renders and remounts included). Call it once the snapshot is on screen.
   */
  report(): void
  /** Starts over: a new POST (or a fresh window for an attached search). */
  retry(): void
}

/** The create (or attach) step's result, kept in the cache so no remount repeats it. */
interface SearchHandle {
  uuid: string
  accessToken: string
  startedAt: number
  /** The rate table the POST returned; absent when attached. */
  initial: RateTable | undefined
}

/** The poll query's data: the latest table plus what must outlive it (partners that already answered). */
interface Snapshot {
  rateTable: RateTable
  partners: SeenPartner[]
  /** The window closed before every partner answered. */
  closed: boolean
}

function toSnapshot(previous: Snapshot | undefined, rateTable: RateTable): Snapshot {
  return {
    rateTable,
    partners: mergeSeenPartners(
      previous?.partners ?? [],
      stepOf(rateTable),
      previous ? stepOf(previous.rateTable) : undefined,
    ),
    closed: false,
  }
}

function stepOf(rateTable: RateTable) {
  return { pending: rateTable.pendingResponses, offerUuids: rateTable.offers.map((offer) => offer.uuid) }
}

const NOTHING: never[] = []

function attachedHandle(attach: AttachedSearch): SearchHandle {
  // The window runs from when this widget learned of the search, on its own clock.
  return {
    uuid: attach.uuid,
    accessToken: attach.accessToken,
    startedAt: Date.now(),
    initial: attach.rateTable,
  }
}

type HandleOptions = QueryObserverOptions<SearchHandle, OfferWidgetError>
type PollOptions = QueryObserverOptions<Snapshot, OfferWidgetError>

/** The create (or attach) query. One POST per submitted search: see docs/decisions/0103-widget-core.md. */
function handleOptions(options: OfferSearchOptions, attempt: number): HandleOptions {
  const { endpoint = '', source = 'offer-search', submission = 0, placement } = options
  const request = searchRequestOf(options)
  const attach = request.kind === 'attach' ? request.attach : undefined
  const given =
    request.kind === 'lead'
      ? request.lead
      : request.kind === 'search' && request.search
        ? toSearchInput(request.search)
        : undefined
  const body = given && placement ? { ...given, placement } : given
  return {
    queryKey: attach
      ? ['offer-widget', 'attach', endpoint, source, attach.uuid, attach.accessToken, attempt]
      : ['offer-widget', 'create', endpoint, source, body ?? null, submission, attempt],
    // No abort signal: an unmount cannot cancel the POST and cause a re-send; `retry: false` so a network
    // retry never sends it twice either.
    queryFn: async () => {
      if (attach) return attachedHandle(attach)
      const created = await createSearch(
        endpoint,
        source,
        body ?? {},
        request.kind === 'lead' ? idempotencyKeyFor(endpoint, body) : undefined,
      )
      // The window runs from when the widget learned of the search, on the browser's own clock.
      return {
        uuid: created.rateTable.uuid,
        accessToken: created.accessToken,
        startedAt: Date.now(),
        initial: created.rateTable,
      }
    },
    enabled: attach !== undefined || body !== undefined,
    retry: false,
    // A server-created search with its rate table is known in the first render, on the server too.
    initialData: attach?.rateTable ? () => attachedHandle(attach) : undefined,
  }
}

/** The poll query of `handle`'s search: once a second while partners are pending inside the window. */
function pollOptions(options: OfferSearchOptions, handle: SearchHandle | undefined): PollOptions {
  const { endpoint = '', source = 'offer-search' } = options
  const deadline = handle ? handle.startedAt + pollWindowMs(source) : 0
  return {
    queryKey: ['offer-widget', 'poll', endpoint, source, handle?.uuid ?? null, handle?.startedAt ?? null],
    enabled: handle !== undefined,
    initialData: handle?.initial && (() => toSnapshot(undefined, handle.initial as RateTable)),
    queryFn: async ({ client, queryKey }) => {
      const state = client.getQueryState<Snapshot, OfferWidgetError>(queryKey)
      if (!handle || Date.now() >= deadline) {
        // The window is over: send nothing. Errors until now end the search as errors; otherwise keep
        // what arrived and mark the search closed.
        if (state?.fetchFailureReason) throw state.fetchFailureReason
        if (state?.data) return { ...state.data, closed: true }
        throw new OfferWidgetError('network', 'The offer service did not answer within the polling window')
      }
      const table = await pollSearch(endpoint, source, handle.uuid, handle.accessToken)
      return toSnapshot(client.getQueryData<Snapshot>(queryKey), table)
    },
    // v5 hands this the Query, not the data.
    refetchInterval: (query) =>
      nextPollInterval(
        {
          pendingCount: query.state.data?.rateTable.pendingResponses.length,
          deadline,
          stopped: query.state.status === 'error' || query.state.data?.closed === true,
        },
        Date.now(),
      ),
    // The window is the search's, not the tab's: a visitor who switches tabs still gets the results.
    refetchIntervalInBackground: true,
    retry: (_failureCount, error) => shouldRetryPoll(error, Date.now(), deadline),
    retryDelay: (failureCount, error) => scheduledRetryDelay(failureCount, error, Date.now(), deadline),
  }
}

/** Status, offers, disclaimers and progress from the two queries' results. */
function derive(
  options: OfferSearchOptions,
  requested: boolean,
  handleResult: HandleResult,
  pollResult: PollResult,
): Omit<OfferSearchResult, 'retry' | 'measure'> {
  const handle = handleResult.data
  const snapshot = handle ? pollResult.data : undefined
  const rateTable = snapshot?.rateTable
  const partners = snapshot?.partners ?? NOTHING
  const disclaimers = disclaimersToShow(partners)
  const display = rateTable ? toDisplayOffers(rateTable.offers, { preview: options.preview }) : NOTHING
  // A second-look offer is its partner's own (the card names the lender and carries its disclaimer): the
  // timing credit is for the offer search, whose offers never name their partner (offer-sources.ts).
  const offers = options.source === 'second-look' ? display : withSources(display, partners, disclaimers)
  const { failed = false, ...status } = deriveStatus({
    requested,
    createError: handleResult.error,
    created: handle !== undefined,
    rateTable,
    closed: snapshot?.closed === true,
    pollError: handle ? pollResult.error : null,
    displayableOffers: offers.length,
  })
  return {
    ...status,
    failed,
    offers,
    disclaimers,
    progress: progressOf(partners, rateTable?.pendingResponses ?? NOTHING),
    search: handle ? { uuid: handle.uuid, source: options.source ?? 'offer-search' } : null,
    rateTable,
  }
}

type HandleResult = QueryObserverResult<SearchHandle, OfferWidgetError>
type PollResult = QueryObserverResult<Snapshot, OfferWidgetError>

/**
 * One search, held for as long as something shows it: `subscribe` starts its requests, the last
 * unsubscribe stops them; the POST and the poll live in the client's cache, so a new `createOfferSearch`
 * on the same client with the same options (a remount) picks the search up instead of sending it again.
 * Framework adapters: see useOfferSearch.ts; docs/decisions/0103-widget-core.md.
 */
// long-function: one search over two query observers and its listeners: subscribe, setOptions, retry and measure share them, each a few lines (the store React and the element both read)
export function createOfferSearch(initial: OfferSearchOptions): OfferSearch {
  const client = initial.queryClient ?? createWidgetQueryClient()
  const listeners = new Set<() => void>()
  let options = initial
  let attempt = 0
  let unsubscribe: (() => void)[] = []
  const handles = new QueryObserver(client, handleOptions(options, attempt))
  const polls = new QueryObserver(client, pollOptions(options, handles.getCurrentResult().data))
  let current: OfferSearchResult | undefined
  /** Every part equal to the last result's is the last result's: what React compares stays the same. */
  const resultOf = (o: OfferSearchOptions, requested: unknown, handle: HandleResult, poll: PollResult) =>
    replaceEqualDeep(current, { ...derive(o, requested !== false, handle, poll), retry, measure })

  /** The poll follows the create (a new handle is a new poll query); listeners hear of a new result. */
  function changed(): void {
    polls.setOptions(pollOptions(options, handles.getCurrentResult().data))
    const next = resultOf(
      options,
      handles.options.enabled,
      handles.getCurrentResult(),
      polls.getCurrentResult(),
    )
    if (next === current) return
    current = next
    for (const listener of listeners) listener()
  }

  function setOptions(next: OfferSearchOptions): void {
    options = next
    handles.setOptions(handleOptions(options, attempt))
    changed()
  }

  function retry(): void {
    attempt += 1
    setOptions(options)
  }

  function measure(what: SearchMeasure): void {
    const handle = handles.getCurrentResult().data
    if (handle && options.source !== 'second-look' && !options.preview) {
      sendMeasure(options.endpoint ?? '', handle.uuid, handle.accessToken, what)
    }
  }

  changed()
  return {
    subscribe(listener) {
      // Batched as query-core's adapters batch their observers' updates (one render for several changes).
      const batched = notifyManager.batchCalls(listener)
      listeners.add(batched)
      if (listeners.size === 1) unsubscribe = [handles.subscribe(changed), polls.subscribe(changed)]
      // As useQuery does: take in what changed between creating the observers and subscribing.
      handles.updateResult()
      polls.updateResult()
      return () => {
        listeners.delete(batched)
        if (listeners.size === 0) for (const stop of unsubscribe.splice(0)) stop()
      }
    },
    getSnapshot: () => current as OfferSearchResult,
    getOptimisticResult(next) {
      const handleOpts = client.defaultQueryOptions(handleOptions(next, attempt))
      const handle = handles.getOptimisticResult(handleOpts)
      const poll = polls.getOptimisticResult(client.defaultQueryOptions(pollOptions(next, handle.data)))
      return resultOf(next, handleOpts.enabled, handle, poll)
    },
    setOptions,
    report() {
      const { status, error, search, offers, incomplete } = current as OfferSearchResult
      const handle = handles.getCurrentResult().data
      const { onEvent } = options
      if (handle && search) {
        if (firstTime(client, handle)) {
          options.onSearchCreated?.(search)
          onEvent?.({ type: 'search_created', ...search })
        }
        if (status === 'complete' && firstTime(client, `${handle.uuid}@${handle.startedAt}:complete`)) {
          const done = { ...search, offerCount: offers.length, incomplete }
          options.onComplete?.(done)
          onEvent?.({ type: 'search_complete', ...done })
        }
      }
      if (status === 'error' && error && firstTime(client, error)) {
        options.onError?.(error)
        // The kind and the BFF's status and code only: its message may quote what the visitor typed.
        onEvent?.({ type: 'error', kind: error.kind, status: error.status, code: error.code })
      }
    },
    retry,
  }
}
