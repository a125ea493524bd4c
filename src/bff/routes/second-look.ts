/**
 * @module The second look under `/api`: the marketplace's search engine served as a search resource with
 * the BFF's access tokens, visitor identity, per-IP limit and lead ceiling, and the marketplace's other
 * routes, those that take a bearer token behind the BFF's limit on refused tokens.
 */
import type { Hono } from 'hono'
import { searchApiRoutes } from '../../http/search-resource.ts'
import type { BffServices, SecondLookMount } from '../services.ts'

export function secondLookRoutes(secondLook: SecondLookMount, services: BffServices): Hono {
  const perMinute = secondLook.leadCeilingPerMinute
  return searchApiRoutes(secondLook.marketplace, {
    accessTokens: services.accessTokens,
    identity: services.clientIdentity,
    refuseBots: !services.config.sandboxMode,
    guards: [
      services.perIpRateLimit('second-look'),
      // Many addresses (a botnet, or many /64s behind a trusted proxy) cannot flood partners either.
      services.ceiling('second-look', {
        points: perMinute,
        durationSeconds: 60,
        refusal: `This server takes at most ${perMinute} loan applications a minute (LEAD_CEILING_PER_MINUTE): retry after Retry-After`,
      }),
    ],
    bearerGuards: [services.authFailureLimit('reports-and-conversions')],
  })
}
