/**
 * @module The second-look marketplace's public surface: build it with `createMarketplace`, feed it a
 * registry from `resolvePartnerRegistry` (or `loadPartnerRegistry`), the operator's consent texts from
 * `loadConsentTexts`, and a ledger from `src/ledger`.
 */

export type { ConsentTexts } from '../contract/consent.ts'
export type { OperatorLink, ServedConsentTexts } from '../contract/consent-notices.ts'
export type { AccessTokens, ClientIdentityFn } from '../http/request-services.ts'
export type {
  ApiRoute,
  CreatedRateTable,
  RateTableBody,
  SearchApi,
  SearchApiHost,
  SearchEngine,
  SearchResourceOptions,
} from '../http/search-resource.ts'
export { searchApiRoutes } from '../http/search-resource.ts'
export type { Bid, WinnerPolicy } from './auction/auction.ts'
export { runAuction } from './auction/auction.ts'
export type { Scorer } from './auction/score.ts'
export { scoreOffer } from './auction/score.ts'
export type { ClickSigner } from './clicks/click-token.ts'
export { createClickSigner } from './clicks/click-token.ts'
export type { ConsentKind, ConsentTextEntry, OperatorConsentTexts } from './consent/consent-texts.ts'
export { ConsentTextsError, loadConsentTexts, parseConsentTexts } from './consent/consent-texts.ts'
export type { Marketplace, MarketplaceConfig, MarketplaceDeps } from './create-marketplace.ts'
export { createMarketplace } from './create-marketplace.ts'
export type {
  PartnerDisplay,
  PartnerPays,
  PartnerRegistryEntry,
  PartnerTier,
} from './registry/partner-registry.ts'
export {
  loadPartnerRegistry,
  PartnerRegistryError,
  parsePartnerRegistry,
} from './registry/partner-registry.ts'
export type { ResolvedRegistry, StartedPartners } from './registry/resolve-partner-registry.ts'
export { resolvePartnerRegistry } from './registry/resolve-partner-registry.ts'
