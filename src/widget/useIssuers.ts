/** @module The insurer list for the form's "current insurer" question, from `GET /api/issuers`. */
import { type QueryClient, useQuery } from '@tanstack/react-query'
import { fetchIssuers } from './bff-client.ts'

export function useIssuers(endpoint: string, enabled: boolean, client: QueryClient) {
  return useQuery(
    {
      queryKey: ['offer-widget', 'issuers', endpoint],
      queryFn: ({ signal }) => fetchIssuers(endpoint, signal),
      enabled,
      // An optional question: one quick retry, then the form carries on without the list.
      retry: 1,
      retryDelay: 1000,
    },
    client,
  )
}
