/**
 * @module A query hook over TanStack's query-core `QueryObserver`, for the widget's private client. It is
 * what `@tanstack/react-query`'s `useQuery` does (useBaseQuery.ts) minus the parts the widget never uses:
 * React context, suspense, error boundaries and persisted-cache restoring. Those cost about 0.7 kB gzip in
 * the script-tag bundle, where every kB is the publisher's page weight.
 */
import {
  notifyManager,
  type QueryClient,
  type QueryKey,
  QueryObserver,
  type QueryObserverOptions,
  type QueryObserverResult,
} from '@tanstack/query-core'
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'

export function useWidgetQuery<TData, TError, TKey extends QueryKey = QueryKey>(
  options: QueryObserverOptions<TData, TError, TData, TData, TKey>,
  client: QueryClient,
): QueryObserverResult<TData, TError> {
  const defaulted = client.defaultQueryOptions(options)
  // The result returned before the observer subscribes already says "fetching" when a fetch is due, so
  // the first render never shows a stale idle state (react-query does the same).
  defaulted._optimisticResults = 'optimistic'
  const [observer] = useState(() => new QueryObserver<TData, TError, TData, TData, TKey>(client, defaulted))
  const result = observer.getOptimisticResult(defaulted)

  useEffect(() => {
    observer.setOptions(defaulted)
  }, [defaulted, observer])

  useSyncExternalStore(
    useCallback(
      (onStoreChange) => {
        const unsubscribe = observer.subscribe(notifyManager.batchCalls(onStoreChange))
        // Picks up anything that changed between render and subscribe.
        observer.updateResult()
        return unsubscribe
      },
      [observer],
    ),
    () => observer.getCurrentResult(),
    () => observer.getCurrentResult(),
  )
  // Re-renders only when a property this component read changes.
  return observer.trackResult(result)
}
