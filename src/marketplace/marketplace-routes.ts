/**
 * @module The marketplace's API besides its search (`Marketplace.routes`), each route at its path under the
 * BFF's `/api`: the operator's consent texts, clicks and impressions anyone may follow, and the routes that
 * take a bearer token (conversions, the partner reports and the operator's own: consent records, duplicate
 * applications). The BFF mounts them with the search (`searchApiRoutes`, src/http/search-resource.ts).
 */
import type { ApiRoute } from '../http/search-resource.ts'
import type { MarketplaceContext } from './marketplace-context.ts'
import { clickRoutes } from './routes/click-route.ts'
import { consentTextsRoute } from './routes/consent-texts-route.ts'
import { conversionRoutes } from './routes/conversion-route.ts'
import { impressionRoutes } from './routes/impression-route.ts'
import { operatorReportRoutes } from './routes/operator-report-routes.ts'
import { reportRoutes } from './routes/report-routes.ts'

export function marketplaceRoutes(ctx: MarketplaceContext): ApiRoute[] {
  return [
    // Before the search's `/second-look/:uuid`, which would answer a path that is not a uuid with a 400.
    { path: '/second-look/consent', app: consentTextsRoute(ctx) },
    { path: '/clicks', app: clickRoutes(ctx) },
    { path: '/impressions', app: impressionRoutes(ctx) },
    { path: '/conversions', app: conversionRoutes(ctx), bearer: true },
    { path: '/reports/partners', app: reportRoutes(ctx), bearer: true },
    { path: '/reports', app: operatorReportRoutes(ctx), bearer: true },
  ]
}
