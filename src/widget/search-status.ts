/**
 * @module Where a search stands, derived from its two queries (create or attach, then poll). Pure, so
 * every branch is tested without React.
 */
import type { RateTable } from '../contract/rate-table.ts'
import type { OfferWidgetError } from './widget-error.ts'

export type SearchStatus = 'idle' | 'creating' | 'searching' | 'complete' | 'error'

export interface StatusInput {
  /** False until there is something to search for (form not submitted yet). */
  requested: boolean
  createError: OfferWidgetError | null
  created: boolean
  rateTable: RateTable | undefined
  /** The window closed while partners were still pending. */
  closed: boolean
  pollError: OfferWidgetError | null
  displayableOffers: number
}

export interface StatusOutput {
  status: SearchStatus
  error: OfferWidgetError | null
  /** Complete without every partner having answered (window closed, or polling failed after offers). */
  incomplete: boolean
  /** Complete because polling failed for good with offers on screen: the visitor is told some are missing. */
  failed?: boolean
}

export function deriveStatus(input: StatusInput): StatusOutput {
  const ok = (status: SearchStatus, incomplete = false): StatusOutput => ({ status, error: null, incomplete })
  if (!input.requested) return ok('idle')
  if (input.createError) return { status: 'error', error: input.createError, incomplete: false }
  if (!input.created || !input.rateTable) {
    return input.pollError ? { status: 'error', error: input.pollError, incomplete: false } : ok('creating')
  }
  if (input.rateTable.pendingResponses.length === 0) return ok('complete')
  // Past the window with partners pending: keep what arrived, stop.
  if (input.closed) return ok('complete', true)
  if (input.pollError) {
    // Polling ended on errors. With offers on screen they stay (a complete, partial result); with none,
    // the visitor gets the graceful error and a way to try again.
    return input.displayableOffers > 0
      ? { ...ok('complete', true), failed: true }
      : { status: 'error', error: input.pollError, incomplete: true }
  }
  return ok('searching')
}
