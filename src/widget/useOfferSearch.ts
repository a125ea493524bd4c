/**
 * @module The search as a hook: create (or attach to) one search, poll it with React Query, and return
 * display-ready offers, disclaimers and progress. Thin wiring over pure modules; see poll-policy.ts,
 * display-rules.ts, seen-partners.ts and search-status.ts for the rules themselves.
 */
import { type QueryClient, useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { LeadInput } from '../contract/partner.ts'
import type { RateTable } from '../contract/rate-table.ts'
import { createSearch, type OfferSource, pollSearch } from './bff-client.ts'
import { type DisplayOffer, toDisplayOffers } from './display-rules.ts'
import { idempotencyKeyFor } from './lead-key.ts'
import { firstTime } from './once.ts'
import { nextPollInterval, pollWindowMs, scheduledRetryDelay, shouldRetryPoll } from './poll-policy.ts'
import { createWidgetQueryClient } from './query-client.ts'
import { type SearchData, toSearchInput } from './search-input.ts'
import { deriveStatus, type SearchStatus } from './search-status.ts'
import {
  type Disclaimer,
  disclaimersToShow,
  mergeSeenPartners,
  progressOf,
  type SeenPartner,
} from './seen-partners.ts'
import { useLatestRef } from './useLatestRef.ts'
import { OfferWidgetError } from './widget-error.ts'

/** A search the publisher created on its server and handed to the page. */
export interface AttachedSearch {
  uuid: string
  accessToken: string
  /**
   * The rate table the create answered (`createServerSearch` returns it). With it the widget shows its
   * offers in its first render, on the server too, and polls on from there.
   */
  rateTable?: RateTable
}

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

export interface UseOfferSearchOptions {
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
  /** Previews are never tracked: links use `unmonetizedUrl`. */
  preview?: boolean
  /** The client to keep the search in. Default: a private one created for this hook. */
  queryClient?: QueryClient
  onSearchCreated?: (event: SearchCreatedEvent) => void
  onComplete?: (event: SearchCompleteEvent) => void
  onError?: (error: OfferWidgetError) => void
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

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the search state (create, poll, window, status) in one hook; issue 34's framework-free core under a thin hook was built on a branch that did not land (the embed bundle grew past its budget)
export function useOfferSearch(options: UseOfferSearchOptions): OfferSearchResult {
  const { endpoint = '', source = 'offer-search', search, attach, submission = 0, preview = false } = options
  const [ownClient] = useState(() => options.queryClient ?? createWidgetQueryClient())
  const client = options.queryClient ?? ownClient
  const [attempt, setAttempt] = useState(0)
  const callbacks = useLatestRef({
    onSearchCreated: options.onSearchCreated,
    onComplete: options.onComplete,
    onError: options.onError,
  })

  const lead = options.lead ?? undefined
  const body = attach
    ? undefined
    : source === 'second-look'
      ? lead
      : search
        ? toSearchInput(search)
        : undefined
  const requested = Boolean(attach) || body !== undefined

  // One POST per submitted search: a query keyed by the submission is fetched once and then served from
  // the cache, whatever StrictMode, re-renders or remounts do; `retry: false` so a network retry never
  // sends it twice. Its queryFn takes no abort signal, so an unmount cannot cancel it and cause a re-send.
  const handleQuery = useQuery<SearchHandle, OfferWidgetError>(
    {
      queryKey: attach
        ? ['offer-widget', 'attach', endpoint, source, attach.uuid, attach.accessToken, attempt]
        : ['offer-widget', 'create', endpoint, source, body ?? null, submission, attempt],
      queryFn: async () => {
        if (attach) return attachedHandle(attach)
        const created = await createSearch(
          endpoint,
          source,
          body ?? {},
          source === 'second-look' ? idempotencyKeyFor(endpoint, body) : undefined,
        )
        return {
          uuid: created.rateTable.uuid,
          accessToken: created.accessToken,
          // The window runs from when the widget learned of the search, on the browser's own clock.
          startedAt: Date.now(),
          initial: created.rateTable,
        }
      },
      enabled: requested,
      retry: false,
      // A server-created search with its rate table is known in the first render, on the server too.
      initialData: attach?.rateTable ? () => attachedHandle(attach) : undefined,
    },
    client,
  )
  const handle = handleQuery.data
  const deadline = handle ? handle.startedAt + pollWindowMs(source) : 0

  const pollQuery = useQuery<Snapshot, OfferWidgetError>(
    {
      queryKey: ['offer-widget', 'poll', endpoint, source, handle?.uuid ?? null, handle?.startedAt ?? null],
      enabled: handle !== undefined,
      initialData: handle?.initial ? () => toSnapshot(undefined, handle.initial as RateTable) : undefined,
      queryFn: async ({ client: qc, queryKey }) => {
        if (!handle) throw new OfferWidgetError('client', 'useOfferSearch: polled before the search existed')
        const state = qc.getQueryState<Snapshot, OfferWidgetError>(queryKey)
        if (Date.now() >= deadline) {
          // The window is over: send nothing. Errors until now end the search as errors; otherwise keep
          // what arrived and mark the search closed.
          if (state?.fetchFailureReason) throw state.fetchFailureReason
          if (state?.data) return { ...state.data, closed: true }
          throw new OfferWidgetError('network', 'The offer service did not answer within the polling window')
        }
        const table = await pollSearch(endpoint, source, handle.uuid, handle.accessToken)
        return toSnapshot(qc.getQueryData<Snapshot>(queryKey), table)
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
    },
    client,
  )

  const snapshot = handle ? pollQuery.data : undefined
  const rateTable = snapshot?.rateTable
  const offers = useMemo(
    () => (rateTable ? toDisplayOffers(rateTable.offers, { preview }) : NOTHING),
    [rateTable, preview],
  )
  const partners = snapshot?.partners ?? NOTHING
  const disclaimers = useMemo(() => disclaimersToShow(partners), [partners])
  const progress = useMemo(
    () => progressOf(partners, rateTable?.pendingResponses ?? NOTHING),
    [partners, rateTable],
  )

  const {
    status,
    error,
    incomplete,
    failed = false,
  } = deriveStatus({
    requested,
    createError: handleQuery.error,
    created: handle !== undefined,
    rateTable,
    closed: snapshot?.closed === true,
    pollError: handle ? pollQuery.error : null,
    displayableOffers: offers.length,
  })

  const created = useMemo(() => (handle ? { uuid: handle.uuid, source } : null), [handle, source])

  useEffect(() => {
    if (handle && created && firstTime(client, handle)) callbacks.current.onSearchCreated?.(created)
  }, [client, handle, created, callbacks])

  useEffect(() => {
    if (status !== 'complete' || !handle || !firstTime(client, `${handle.uuid}@${handle.startedAt}:complete`))
      return
    callbacks.current.onComplete?.({ uuid: handle.uuid, source, offerCount: offers.length, incomplete })
  }, [client, status, handle, source, offers.length, incomplete, callbacks])

  useEffect(() => {
    if (status === 'error' && error && firstTime(client, error)) callbacks.current.onError?.(error)
  }, [client, status, error, callbacks])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])

  return {
    status,
    offers,
    disclaimers,
    progress,
    error,
    incomplete,
    failed,
    search: created,
    rateTable,
    retry,
  }
}
