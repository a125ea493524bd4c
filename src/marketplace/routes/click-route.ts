/**
 * @module `GET /clicks/:token`: verifies the signed token, records the click once per lead and offer
 * (unique clicks), and redirects (302) to the partner's `click_url`, which no browser saw before. A forged,
 * altered or expired token, or an offer that was never displayed, is a 404.
 */
import type { Hono } from 'hono'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { errorResponse } from './error-response.ts'

// biome-ignore lint/suspicious/noExplicitAny: the routes fit a sub-app of any Env
export function registerClickRoute(api: Hono<any, any, any>, ctx: MarketplaceContext): void {
  api.get('/clicks/:token', async (c) => {
    const offerId = ctx.clickSigner.verify(c.req.param('token'))
    const offer = offerId === undefined ? undefined : await ctx.ledger.findOffer(offerId)
    if (offer === undefined || !offer.displayed) {
      return errorResponse(c, 404, 'not_found', 'This offer link is unknown or has expired.')
    }
    const first = await ctx.ledger.recordClick({
      offerId: offer.id,
      leadId: offer.leadId,
      partnerId: offer.partnerId,
      clickedAt: new Date(ctx.now()),
    })
    ctx.logger.info(
      { leadId: offer.leadId, offerId: offer.id, partnerId: offer.partnerId, first },
      'offer click',
    )
    c.header('Cache-Control', 'no-store')
    // The partner learns where the visitor came from by its own click_url, not by our token in a Referer.
    c.header('Referrer-Policy', 'no-referrer')
    return c.redirect(offer.clickUrl, 302)
  })
}
