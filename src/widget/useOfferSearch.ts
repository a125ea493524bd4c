/**
 * @module The search as a hook: `createOfferSearch` (offer-search.ts, no React) held for the component's
 * life and read with `useSyncExternalStore`, the way `useQuery` adapts query-core's `QueryObserver`: a render
 * shows the result for its own options; after the commit, an effect applies them and reports the callbacks.
 * docs/decisions/0103-widget-core.md.
 */
import { useEffect, useState, useSyncExternalStore } from 'react'
import { createOfferSearch, type OfferSearchOptions, type OfferSearchResult } from './offer-search.ts'

export type UseOfferSearchOptions = OfferSearchOptions

export function useOfferSearch(options: UseOfferSearchOptions): OfferSearchResult {
  const [search] = useState(() => createOfferSearch(options))
  const result = search.getOptimisticResult(options)
  useSyncExternalStore(search.subscribe, search.getSnapshot, search.getSnapshot)
  useEffect(() => {
    search.setOptions(options)
    search.report()
  })
  return result
}
