/**
 * @module The marketplace's API as the BFF serves it (`searchApiRoutes`), for the marketplace benches: every
 * access token accepted, one fixed visitor, no limits, so a bench measures the marketplace and not the BFF.
 */
import type { Hono } from 'hono'
import { type Marketplace, searchApiRoutes } from '../src/marketplace/index.ts'

export function benchApi(marketplace: Marketplace): Hono {
  return searchApiRoutes(marketplace, {
    accessTokens: { issue: (uuid) => uuid, verify: () => true },
    identity: () => ({ ipAddress: '192.0.2.1', userAgent: 'bench/1' }),
    refuseBots: false,
  })
}
