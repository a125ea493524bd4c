/**
 * @module The marketplace's API as one sub-app (`Marketplace.routes`), mounted by the BFF at `/api`: the
 * operator's consent texts, lead intake and polls, clicks, impressions, conversions, the partner reports and
 * the operator's own (consent records, duplicate applications).
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { refuseDeclaredBots } from '../http/refuse-declared-bots.ts'
import type { MarketplaceContext } from './marketplace-context.ts'
import { clickRoutes } from './routes/click-route.ts'
import { consentTextsRoute } from './routes/consent-texts-route.ts'
import { conversionRoutes } from './routes/conversion-route.ts'
import { impressionRoutes } from './routes/impression-route.ts'
import { operatorReportRoutes } from './routes/operator-report-routes.ts'
import { reportRoutes } from './routes/report-routes.ts'
import { secondLookRoutes } from './routes/second-look-routes.ts'

/** What the host (the BFF) runs before some of the marketplace's routes: its limits. */
export interface MarketplaceRouteOptions {
  /** Runs before `POST /second-look` only (the BFF's per-IP limit). */
  beforeIntake?: MiddlewareHandler[]
  /** Runs before every route that takes a bearer token: conversions and reports (the BFF's failure limit). */
  beforeBearer?: MiddlewareHandler[]
}

export function marketplaceRoutes(
  ctx: MarketplaceContext,
  sandboxMode: boolean,
  { beforeIntake = [], beforeBearer = [] }: MarketplaceRouteOptions,
): Hono {
  const bearer = (routes: Hono) => {
    const guarded = new Hono()
    for (const middleware of beforeBearer) guarded.use('*', middleware)
    return guarded.route('/', routes)
  }
  return (
    new Hono()
      // Before `/second-look/:uuid`, which would answer a path that is not a uuid with a 400.
      .route('/second-look/consent', consentTextsRoute(ctx))
      .route(
        '/second-look',
        secondLookRoutes(ctx, [
          // Before the per-IP limit, as for offer searches: a bot's lead never reaches a partner.
          refuseDeclaredBots({
            active: !sandboxMode,
            refused: 'send second-look leads (each one goes to lending partners)',
          }),
          ...beforeIntake,
        ]),
      )
      .route('/clicks', clickRoutes(ctx))
      .route('/impressions', impressionRoutes(ctx))
      .route('/conversions', bearer(conversionRoutes(ctx)))
      .route('/reports/partners', bearer(reportRoutes(ctx)))
      .route('/reports', bearer(operatorReportRoutes(ctx)))
  )
}
