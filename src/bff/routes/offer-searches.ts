/**
 * @module `POST /api/offer-searches` and `GET /api/offer-searches/:uuid`: create a search with the live
 * visitor's session information, then poll it with the access token issued for its uuid. A declared bot is
 * refused (403) before anything is billed.
 */
import { Hono } from 'hono'
import { ACCESS_TOKEN_HEADER } from '../../contract/bff.ts'
import { UUID_PATTERN } from '../../contract/common.ts'
import { OFFER_SEARCH_MAX_DEPTH } from '../../contract/offer-search.ts'
import { limitBody } from '../../http/body-limit.ts'
import { httpError } from '../../http/errors.ts'
import { readJsonBody } from '../../http/json-body.ts'
import { refuseDeclaredBots } from '../../http/refuse-declared-bots.ts'
import { createSearch } from '../create-search.ts'
import type { PollCoalescer } from '../poll-coalescer.ts'
import type { BffServices } from '../services.ts'
import { rethrowUpstream } from '../upstream/index.ts'

/** docs/offer-search-api.md shows no request size bounds; a search body is well under 2 KB, so 16 KB is generous. */
export const BODY_LIMIT_BYTES = 16 * 1024

export function offerSearchRoutes(services: BffServices, coalescer: PollCoalescer): Hono {
  const { accessTokens, clientIdentity } = services
  const app = new Hono()

  app.post(
    '/',
    limitBody(BODY_LIMIT_BYTES),
    refuseDeclaredBots({
      active: !services.config.sandboxMode,
      refused: 'run offer searches (each one is billed)',
    }),
    services.perIpRateLimit('/api/offer-searches'),
    async (c) => {
      const identity = clientIdentity(c)
      const json = await readJsonBody(c, { maxDepth: OFFER_SEARCH_MAX_DEPTH })
      const body = await createSearch(services, identity, json)
      return c.body(body, 201, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    },
  )

  app.get('/:uuid', async (c) => {
    const uuid = c.req.param('uuid')
    if (!UUID_PATTERN.test(uuid)) {
      throw httpError(400, 'bad_request', 'The rate table id must be a UUID', {
        errors: [{ field: 'uuid', reason: 'uuid must be a UUID (8-4-4-4-12 hex digits)' }],
      })
    }
    // Missing, wrong and expired tokens all look like an unknown uuid: nothing confirms it exists.
    if (!accessTokens.verify(c.req.header(ACCESS_TOKEN_HEADER), uuid)) {
      throw httpError(404, 'not_found', 'No such offer search')
    }
    const rateTable = await coalescer.get(uuid).catch(rethrowUpstream)
    return c.body(rateTable, 200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  })

  return app
}
