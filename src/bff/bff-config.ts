/**
 * @module What the BFF reads of its configuration, declared by the BFF itself: it imports nothing of the
 * process that starts it. The Node server's `loadConfig()` (src/server/config.ts, every variable checked
 * with zod) answers a superset, so it is handed to `createBff` as it is; an embedder (a Worker, a test)
 * writes just these fields. The server's `Config` extends this interface, so a field is declared once.
 */
import type { ZipKey } from '../contract/offer-search.ts'

export interface BffConfig {
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Sandbox mode: declared bots are let through and server-route visitors may have private addresses. */
  sandboxMode: boolean
  /**
   * False on a loan-only server (the Node server: `BFF_MODE=production` without `ENGINE_TOKEN`): the
   * offer-search routes answer 404 and no upstream is called or checked.
   */
  offerSearch: boolean
  engine: {
    env: 'test' | 'production'
    /** The upstream's base URL; `createBff`'s `upstreamBaseUrl` option stands in while it is absent. */
    baseUrl: string | undefined
    /** The API token: sent upstream only, never to a browser. */
    token: string
    apiVersion: string
  }
  /** Signs the per-search access tokens. */
  sessionSecret: string
  accessTokenTtlSeconds: number
  /** `TRUST_PROXY` as written: a hop count or comma-separated CIDRs / proxy-addr keywords. */
  trustProxy: string | undefined
  /** Origins whose pages may call `/api` (CORS). */
  allowedOrigins: string[]
  /** Shared limits, metrics of limits and search logs across replicas when set. */
  redisUrl: string | undefined
  /** How a search body's ZIP is spelled upstream (docs/offer-search-api.md). */
  zipCodeKey: ZipKey
  /**
   * Per-address limit on search- and lead-creating POSTs: `points` per `windowSeconds` (the Node server:
   * `SANDBOX_RATE_LIMIT_POINTS` in sandbox mode, `RATE_LIMIT_POINTS` otherwise).
   */
  rateLimit: { points: number; windowSeconds: number }
  upstreamTimeouts: { connectMs: number; requestMs: number }
  /** `SERVER_API_KEYS`: bearer keys of `POST /api/server/offer-searches` (secrets: never log). Empty: off. */
  serverApiKeys: string[]
  /** Per-key limit of the server route: `points` searches per `windowSeconds`. */
  serverRateLimit: { points: number; windowSeconds: number }
}
