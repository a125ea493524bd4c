/**
 * @module What a widget is asked to show, as one of three kinds: `search` (search data: the widget creates
 * an offer search), `lead` (a second-look lead it submits) or `attach` (a search the publisher's server
 * created); `attach` wins, then the source decides. The search core and `<OfferWidget>` both read their
 * options through `searchRequestOf`, so the rule is written once. docs/decisions/0103-widget-core.md.
 */
import type { LeadInput } from '../contract/lead.ts'
import type { RateTable } from '../contract/rate-table.ts'
import type { OfferSource } from './bff-client.ts'
import type { LeadPrefill } from './loan-application/loan-values.ts'
import type { SearchData } from './search-input.ts'

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

/** The props (or hook options) that say what to search for; `null` is `undefined` (the hook's "not yet"). */
export interface SearchProps {
  source?: OfferSource
  search?: SearchData | null
  /** A complete lead is sent; a partial one only prefills the loan application (ApplicationGate.tsx). */
  lead?: LeadInput | LeadPrefill | null
  attach?: AttachedSearch | null
}

/** `undefined` data: nothing to send yet (status `idle`). */
export type SearchRequest =
  | { kind: 'attach'; attach: AttachedSearch }
  | { kind: 'lead'; lead: LeadInput | LeadPrefill | undefined }
  | { kind: 'search'; search: SearchData | undefined }

export function searchRequestOf({ source, search, lead, attach }: SearchProps): SearchRequest {
  if (attach) return { kind: 'attach', attach }
  if (source === 'second-look') return { kind: 'lead', lead: lead ?? undefined }
  return { kind: 'search', search: search ?? undefined }
}
