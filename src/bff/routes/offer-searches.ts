/**
 * @module `POST /api/offer-searches` and `GET /api/offer-searches/:uuid`: create a search with the live
 * visitor's session information, then poll it with the access token issued for its uuid, and take the widget's
 * measure of it (`POST /api/offer-searches/:uuid/measure`, docs/placements.md): limited per address and per
 * search, and counting only offers the BFF served for it. A declared bot is refused (403) before anything is
 * billed.
 */
import type { Hono, MiddlewareHandler } from 'hono'
import { ACCESS_TOKEN_HEADER } from '../../contract/bff.ts'
import { toFieldIssues } from '../../contract/common.ts'
import { OFFER_SEARCH_MAX_DEPTH } from '../../contract/offer-search.ts'
import { MEASURE_MAX_OFFERS, MEASURE_PATH, searchMeasureSchema } from '../../contract/placement.ts'
import { limitBody } from '../../http/body-limit.ts'
import { httpError } from '../../http/errors.ts'
import { readJsonBody } from '../../http/json-body.ts'
import type { AccessTokens } from '../../http/request-services.ts'
import { checkedSearchUuid, searchResource } from '../../http/search-resource.ts'
import { createSearch } from '../create-search.ts'
import { measureLimits } from '../measure-limits.ts'
import type { PollCoalescer } from '../poll-coalescer.ts'
import type { BffServices } from '../services.ts'
import { rethrowUpstream } from '../upstream/index.ts'

/** docs/offer-search-api.md shows no request size bounds; a search body is well under 2 KB, so 16 KB is generous. */
export const BODY_LIMIT_BYTES = 16 * 1024

export interface OfferSearchRouteOptions {
  /** Prefix of the measure limits' keys (shared across replicas through Redis when configured). */
  keyPrefix: string
  /** `false` (`createBff`'s `rateLimit: false`, benchmarks): no per-address measure limit. */
  perAddressLimit: boolean
}

export function offerSearchRoutes(
  services: BffServices,
  coalescer: PollCoalescer,
  options: OfferSearchRouteOptions,
): Hono {
  const { accessTokens, clientIdentity } = services
  const limits = measureLimits(services, {
    keyPrefix: options.keyPrefix,
    perAddress: options.perAddressLimit,
  })
  const app = searchResource(
    {
      noun: 'offer search',
      bodyLimitBytes: BODY_LIMIT_BYTES,
      refusedToBots: 'run offer searches (each one is billed)',
      async create(c, visitor) {
        const identity = visitor()
        const json = await readJsonBody(c, { maxDepth: OFFER_SEARCH_MAX_DEPTH })
        return createSearch(services, identity, json)
      },
      async poll(uuid) {
        const rateTable = await coalescer.get(uuid).catch(rethrowUpstream)
        services.searchLog.served(uuid, rateTable)
        return rateTable
      },
    },
    {
      accessTokens,
      identity: clientIdentity,
      refuseBots: !services.config.sandboxMode,
      guards: [services.perIpRateLimit('/api/offer-searches')],
    },
  )

  // docs/placements.md: what the widget showed of the search and what was clicked (an insurance click goes
  // straight to the carrier). Limited per address, then guarded like the poll by the search's token (401
  // without one, 403 for another search's or an expired one), then limited per search. Only offers the BFF
  // served for the search count, each once (the search log remembers what it queued).
  app.post(
    `/:uuid/${MEASURE_PATH}`,
    limitBody(MEASURE_BODY_LIMIT_BYTES),
    limits.perAddress,
    requireSearchToken(accessTokens),
    limits.perSearch,
    async (c) => {
      const uuid = checkedSearchUuid(c.req.param('uuid'))
      const measure = searchMeasureSchema.safeParse(await readJsonBody(c, { maxDepth: 3 }))
      if (!measure.success) {
        throw httpError(400, 'validation_failed', 'Fix the fields listed', {
          errors: toFieldIssues(measure.error),
        })
      }
      if ('shown' in measure.data) await services.searchLog.shown(uuid, measure.data.shown)
      else await services.searchLog.clicked(uuid, measure.data.clicked)
      return c.body(null, 204, { 'cache-control': 'no-store' })
    },
  )

  return app
}

/** The search's access token, in `ACCESS_TOKEN_HEADER`, for the search the path names. */
function requireSearchToken(accessTokens: AccessTokens): MiddlewareHandler {
  return async function requireSearchToken(c, next) {
    const uuid = checkedSearchUuid(c.req.param('uuid') ?? '')
    const token = c.req.header(ACCESS_TOKEN_HEADER)
    if (!token) {
      throw httpError(
        401,
        'unauthorized',
        `A measure needs the search's access token in ${ACCESS_TOKEN_HEADER}`,
        {
          errors: [
            { field: ACCESS_TOKEN_HEADER, reason: 'send the accessToken the search was created with' },
          ],
        },
      )
    }
    if (!accessTokens.verify(token, uuid)) {
      throw httpError(
        403,
        'forbidden',
        'This access token is not valid for this offer search (wrong search or expired)',
        {
          errors: [{ field: ACCESS_TOKEN_HEADER, reason: "send this search's unexpired accessToken" }],
        },
      )
    }
    await next()
  }
}

/** The most offer uuids a measure names, each at most 200 characters quoted, with room. */
const MEASURE_BODY_LIMIT_BYTES = MEASURE_MAX_OFFERS * 256 + 1024
