/**
 * @module `GET /impressions/:token`: the impression pixel of a displayed second-look offer. The widget
 * fires it when it renders the offer (never in preview), as it fires any offer's pixels; the first one per
 * lead and offer is a unique impression, which is what the partner report counts as "offers displayed".
 * It answers a 1x1 transparent GIF, uncacheable, whatever happens, so a page never shows a broken image;
 * only a valid token of a displayed offer is counted (a preview token, which a duplicate applicant's view
 * carries, never is).
 */
import { type Context, Hono } from 'hono'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { delivered } from './delivered.ts'

/** The smallest transparent GIF: 1x1, one colour. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

/** Mounted at `/impressions`. */
export function impressionRoutes(ctx: MarketplaceContext): Hono {
  const app = new Hono()
  app.get('/:token', async (c) => {
    const token = c.req.param('token')
    const offerId = ctx.clickSigner.verify(token, 'impression')
    // A duplicate applicant's view of the first application renders its pixels with preview tokens.
    if (offerId === undefined && ctx.clickSigner.verify(token, 'preview') !== undefined) return pixel(c, 200)
    const offer = await delivered(ctx, 'impression', () =>
      offerId === undefined ? undefined : ctx.ledger.findOffer(offerId),
    )
    const counted = offer?.displayed === true
    if (!counted) ctx.metrics.impression('rejected')
    if (offer && counted) {
      const first = await delivered(ctx, 'impression', () =>
        ctx.ledger.recordImpression({
          offerId: offer.id,
          leadId: offer.leadId,
          partnerId: offer.partnerId,
          impressedAt: new Date(ctx.timers.now()),
        }),
      )
      ctx.metrics.impression(first ? 'recorded' : 'repeat')
      if (first) {
        ctx.logger.info(
          { leadId: offer.leadId, offerId: offer.id, partnerId: offer.partnerId },
          'offer impression',
        )
      }
    }
    return pixel(c, counted ? 200 : 404)
  })
  return app
}

function pixel(c: Context, status: 200 | 404) {
  return c.body(new Uint8Array(PIXEL), status, {
    'Content-Type': 'image/gif',
    'Content-Length': String(PIXEL.length),
    'Cache-Control': 'no-store',
    // The widget loads pixels with crossOrigin="anonymous" from the publisher's page.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  })
}
