/**
 * @module The widget's private QueryClient. A host page's client is never read or written: the widget
 * passes this one to every query explicitly instead of reading React context.
 */
import { QueryClient } from '@tanstack/query-core'

export function createWidgetQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A search is a one-shot story: nothing refetches on focus, reconnect or remount, and a created
        // search is kept for the widget's life so a remount never sends its POST again.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retryOnMount: false,
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: Number.POSITIVE_INFINITY,
      },
    },
  })
}
