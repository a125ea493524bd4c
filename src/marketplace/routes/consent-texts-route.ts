/**
 * @module `GET /second-look/consent`: the operator's FCRA and TCPA texts the loan application shows beside
 * its boxes, the only texts lead intake accepts, with the submit button's label they name and the operator's
 * notices and links (`servedConsentTextsSchema`). The same for every visitor and
 * changed only by a restart with a new `CONSENT_TEXTS_FILE`, so a shared cache may keep them five minutes
 * (a page loaded before a change still submits texts the server accepts: they move to `previous`).
 */
import { Hono } from 'hono'
import { httpError } from '../../http/errors.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'

/** Mounted at `/second-look/consent`, before the polls of `/second-look/:uuid`. */
export function consentTextsRoute(ctx: Pick<MarketplaceContext, 'consentTexts'>): Hono {
  const app = new Hono()
  app.get('/', (c) => {
    if (ctx.consentTexts === undefined) {
      throw httpError(
        404,
        'not_found',
        'This server has no consent texts, so it takes no second-look lead: its operator must set CONSENT_TEXTS_FILE.',
      )
    }
    return c.json(ctx.consentTexts.served, 200, { 'cache-control': 'public, max-age=300' })
  })
  return app
}
