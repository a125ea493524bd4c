/**
 * @module `POST /api/server/offer-searches`: a publisher's server creates a search for the visitor whose page
 * it is rendering, sending the visitor's IP address and user agent explicitly, and hands the
 * `{ accessToken, rateTable }` answer to the widget's `attach`. Authenticated per key (`SERVER_API_KEYS`),
 * limited per key, never callable from a browser (no CORS; any `Origin` is refused). Off, with a 404 that
 * says how to turn it on, while `SERVER_API_KEYS` is unset.
 */
import { Hono } from 'hono'
import { toFieldIssues } from '../../contract/common.ts'
import { isPublicAddress } from '../../contract/network-host.ts'
import { OFFER_SEARCH_MAX_DEPTH } from '../../contract/offer-search.ts'
import { serverSearchRequestSchema } from '../../contract/server-search.ts'
import { limitBody } from '../../http/body-limit.ts'
import { normalizeAddress } from '../../http/client-address.ts'
import { errorResponse, httpError } from '../../http/errors.ts'
import { readJsonBody } from '../../http/json-body.ts'
import { createdSearchBody } from '../../http/search-resource.ts'
import { createSearch } from '../create-search.ts'
import { createPerIpLimiter, rateLimit } from '../middleware/rate-limit/index.ts'
import { refuseBrowsers } from '../middleware/refuse-browsers/index.ts'
import { type ServerKeyVariables, serverKeyAuth } from '../middleware/server-key-auth/index.ts'
import type { BffServices } from '../services.ts'

/** A search body is well under 2 KB and a visitor under 2.2 KB; 20 KB is generous. */
const SERVER_SEARCH_BODY_LIMIT_BYTES = 20 * 1024

export interface ServerSearchRouteOptions {
  /** Prefix of the per-key limiter's keys (shared across replicas through Redis when configured). */
  keyPrefix: string
}

export function serverOfferSearchRoutes(services: BffServices, options: ServerSearchRouteOptions): Hono {
  const { config, logger, metrics, redisLink } = services
  const app = new Hono<{ Variables: ServerKeyVariables }>()
  app.use('*', refuseBrowsers())
  if (config.serverApiKeys.length === 0) {
    app.all('*', () =>
      errorResponse(404, 'not_found', 'The server route is off: set SERVER_API_KEYS to turn it on'),
    )
    return app as unknown as Hono
  }
  const limiter = createPerIpLimiter({
    points: config.serverRateLimit.points,
    durationSeconds: config.serverRateLimit.windowSeconds,
    link: redisLink,
    keyPrefix: `${options.keyPrefix}rl:server-key`,
  })

  app.post(
    '/',
    // Wrong keys are counted per client address (the publisher's server); a right key always passes.
    services.authFailureLimit('/api/server/offer-searches'),
    serverKeyAuth({ keys: config.serverApiKeys }),
    rateLimit({
      limiter,
      key: (c) => `key:${c.get('serverKeyId')}`,
      route: '/api/server/offer-searches',
      metrics,
      logger,
    }),
    limitBody(SERVER_SEARCH_BODY_LIMIT_BYTES),
    async (c) => {
      // One level more than a search body: the search sits under `search`.
      const json = await readJsonBody(c, { maxDepth: OFFER_SEARCH_MAX_DEPTH + 1 })
      const parsed = serverSearchRequestSchema.safeParse(json)
      if (!parsed.success) {
        throw httpError(400, 'validation_failed', 'Fix the fields listed', {
          errors: toFieldIssues(parsed.error),
        })
      }
      const { visitor, search } = parsed.data
      const ipAddress = normalizeAddress(visitor.ipAddress)
      // Carriers underwrite on the visitor's address: a private, loopback or reserved one is the publisher's
      // own network, never a visitor. The sandbox takes any address so a local setup can try the route.
      if (ipAddress === undefined || (!config.sandboxMode && !isPublicAddress(ipAddress))) {
        throw httpError(400, 'validation_failed', 'Fix the fields listed', {
          errors: [
            {
              field: 'visitor.ipAddress',
              reason:
                'visitor.ipAddress must be the visitor’s public IP address; a private, loopback or reserved ' +
                'address is your own network (read it with readVisitor() and TRUST_PROXY)',
            },
          ],
        })
      }
      const created = await createSearch(services, { ipAddress, userAgent: visitor.userAgent }, search)
      const body = createdSearchBody(services.accessTokens, created)
      logger.info({ serverKeyId: c.get('serverKeyId') }, 'server-created offer search')
      return c.body(body, 201, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    },
  )
  return app as unknown as Hono
}
