/**
 * @module What a search resource (`search-resource.ts`) is given by its host, declared once here so the BFF,
 * the tests and the benches mount a search with the same interfaces: reading the visitor from the live request
 * (`client-identity.ts` builds the BFF's) and the per-search access tokens (`access-token.ts`).
 */
import type { Context } from 'hono'
import type { SessionInformation } from '../contract/offer-search.ts'

/**
 * Reads the visitor behind a request: the IP address through the trusted proxies only, and the user agent.
 * Throws a 400 `HTTPException` when it cannot.
 */
export type ClientIdentityFn = (c: Context) => SessionInformation

/** The capability a browser needs to poll one search: issued with the search, bound to its uuid. */
export interface AccessTokens {
  /** A token for this uuid, valid until now + ttl. */
  issue(uuid: string): string
  /** True only for an unexpired token issued for exactly this uuid with this secret. */
  verify(token: string | undefined | null, uuid: string): boolean
}
