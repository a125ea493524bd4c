/**
 * @module Middleware for docs/offer-search-api.md's Authentication rules: every request carries
 * `Authorization: Bearer <AUTH_TOKEN>`; "A missing, expired or invalid token gives 401"; and "A test token
 * works only against the test environment and a production token only against production".
 */
import type { MiddlewareHandler } from 'hono'
import { bearerToken } from '../../http/bearer.ts'
import { upstreamError } from '../errors.ts'
import type { Environment } from '../rate-table-store.ts'

export interface RequireBearerOptions {
  environment: Environment
  tokens: Record<Environment, ReadonlySet<string>>
}

export function requireBearer({ environment, tokens }: RequireBearerOptions): MiddlewareHandler {
  const other: Environment = environment === 'test' ? 'production' : 'test'
  const unauthorized = (reason: string) =>
    upstreamError(401, [{ field: 'Authorization', reason }], {
      'www-authenticate': `Bearer realm="sandbox-${environment}"`,
    })
  return async function requireBearerMiddleware(c, next) {
    const header = c.req.header('authorization')
    if (header === undefined || header.trim() === '') {
      throw unauthorized('Authorization header is missing: send "Authorization: Bearer <AUTH_TOKEN>"')
    }
    const token = bearerToken(header)
    if (token === undefined) {
      throw unauthorized('Authorization must be "Bearer <AUTH_TOKEN>" (one token after the word Bearer)')
    }
    if (tokens[environment].has(token)) return next()
    if (tokens[other].has(token)) {
      throw unauthorized(
        `this is a ${other} token; it works only against the ${other} base URL, not ${environment}`,
      )
    }
    throw unauthorized(`token is not valid for the ${environment} environment`)
  }
}
