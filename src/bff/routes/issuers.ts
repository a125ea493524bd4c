/** @module `GET /api/issuers`: the carriers list from the in-process stale-while-revalidate cache. */
import { Hono } from 'hono'
import type { IssuersCache } from '../issuers-cache.ts'
import { rethrowUpstream } from '../upstream/index.ts'

export function issuerRoutes(cache: IssuersCache): Hono {
  const app = new Hono()
  app.get('/', async (c) => {
    const issuers = await cache.get().catch(rethrowUpstream)
    // The same for every visitor, and it changes rarely.
    return c.json(issuers, 200, { 'cache-control': 'public, max-age=300' })
  })
  return app
}
