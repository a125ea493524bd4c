/**
 * @module The only module the rest of the BFF imports to reach the offer search API: the client, its
 * error and the error's mapping to what the widget sees. The files beside it are its parts.
 */

export type { UpstreamClient, UpstreamClientOptions, ValidatedBody } from './create-upstream-client.ts'
export { createUpstreamClient } from './create-upstream-client.ts'
export { OFFER_SEARCH_OFF_MESSAGE, offerSearchOff } from './offer-search-off.ts'
export type { UpstreamOperation } from './operations.ts'
export { rethrowUpstream, toBffError } from './to-bff-error.ts'
export type { UpstreamErrorKind } from './upstream-error.ts'
export { UpstreamError } from './upstream-error.ts'
