/**
 * @module `GET /clicks/:token`: verifies the signed token, records the click once per lead and offer
 * (unique clicks), and redirects (302) to the partner's `click_url`, which no browser saw before. A preview
 * token (the offer's `unmonetizedUrl`) redirects the same way and is never counted. A forged, altered or
 * expired token, an offer that was never displayed, or a destination that is not https (http only to a
 * loopback host) is a 404.
 */
import { Hono } from 'hono'
import { partnerUrlProblem } from '../../contract/partner.ts'
import { httpError } from '../../http/errors.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { delivered } from './delivered.ts'

/** Mounted at `/clicks`. */
export function clickRoutes(ctx: MarketplaceContext): Hono {
  const app = new Hono()
  app.get('/:token', async (c) => {
    const token = c.req.param('token')
    const counted = ctx.clickSigner.verify(token, 'click')
    const offerId = counted ?? ctx.clickSigner.verify(token, 'preview')
    const offer = await delivered(ctx, 'click', () =>
      offerId === undefined ? undefined : ctx.ledger.findOffer(offerId),
    )
    // The reply contract already refuses other links; a row written before that rule never redirects.
    if (offer === undefined || !offer.displayed || partnerUrlProblem(offer.clickUrl) !== undefined) {
      ctx.metrics.click('rejected')
      throw httpError(404, 'not_found', 'This offer link is unknown or has expired.')
    }
    const first =
      counted !== undefined &&
      (await delivered(ctx, 'click', () =>
        ctx.ledger.recordClick({
          offerId: offer.id,
          leadId: offer.leadId,
          partnerId: offer.partnerId,
          clickedAt: new Date(ctx.timers.now()),
        }),
      ))
    // A preview (the offer's unmonetized link) is not a click.
    if (counted !== undefined) ctx.metrics.click(first ? 'recorded' : 'repeat')
    ctx.logger.info(
      {
        leadId: offer.leadId,
        offerId: offer.id,
        partnerId: offer.partnerId,
        first,
        ...(counted === undefined ? { preview: true } : {}),
      },
      'offer click',
    )
    c.header('Cache-Control', 'no-store')
    // The partner learns where the visitor came from by its own click_url, not by our token in a Referer.
    c.header('Referrer-Policy', 'no-referrer')
    return c.redirect(offer.clickUrl, 302)
  })
  return app
}
