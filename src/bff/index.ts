/** @module Public surface of the BFF: the app factory and the pieces other server features reuse. */

export { LEAD_BODY_LIMIT_BYTES } from '../contract/bff.ts'
export type { SessionInformation } from '../contract/offer-search.ts'
export { createAccessTokens } from '../http/access-token.ts'
export { limitBody } from '../http/body-limit.ts'
export { normalizeAddress } from '../http/client-address.ts'
export type { SocketAddressFn } from '../http/client-identity.ts'
export { createClientIdentity, nodeSocketAddress } from '../http/client-identity.ts'
export { errorResponse, httpError } from '../http/errors.ts'
export type { AccessTokens, ClientIdentityFn } from '../http/request-services.ts'
export type {
  ApiRoute,
  CreatedRateTable,
  RateTableBody,
  SearchApi,
  SearchEngine,
} from '../http/search-resource.ts'
export type { BffConfig } from './bff-config.ts'
export type { BffApp, BffOptions } from './create-bff.ts'
export { createBff } from './create-bff.ts'
export type { Logger } from './logger.ts'
export { createLogger } from './logger.ts'
export type { BffMetrics } from './metrics.ts'
export { createMetrics } from './metrics.ts'
export type { PerIpLimiterOptions, RateLimitOptions } from './middleware/rate-limit/index.ts'
export { createPerIpLimiter, limiterKeyForIp, rateLimit } from './middleware/rate-limit/index.ts'
export { requireWidgetHeader } from './middleware/require-widget-header/index.ts'
export { securityHeaders } from './middleware/security-headers/index.ts'
export { widgetCors } from './middleware/widget-cors/index.ts'
export { BODY_LIMIT_BYTES } from './routes/offer-searches.ts'
export type { SearchEventInput, SearchEventSink, SearchLog } from './search-log.ts'
export type { BffServices, PerIpLimitOverrides, SecondLookMount } from './services.ts'
export type { UpstreamClient, ValidatedBody } from './upstream/index.ts'
export { createUpstreamClient, toBffError, UpstreamError } from './upstream/index.ts'
