/**
 * @module Middleware for docs/offer-search-api.md's required headers other than Authorization. `Api-Version`: "A missing
 * or invalid header gives 400; a present but unrecognized version string gives 422." `Content-Type:
 * application/json` is listed under "Required headers (every request)", so it is checked on GETs too.
 */
import type { MiddlewareHandler } from 'hono'
import type { FieldIssue } from '../../contract/common.ts'
import { API_VERSION_PATTERN } from '../../contract/offer-search.ts'
import { upstreamError } from '../errors.ts'

export interface RequireApiHeadersOptions {
  supportedVersions: readonly string[]
}

export function requireApiHeaders({ supportedVersions }: RequireApiHeadersOptions): MiddlewareHandler {
  const supported = new Set(supportedVersions)
  const list = supportedVersions.join(', ')
  return async function requireApiHeadersMiddleware(c, next) {
    const issues: FieldIssue[] = []
    const version = c.req.header('api-version')?.trim()
    if (version === undefined || version === '') {
      issues.push({ field: 'Api-Version', reason: `Api-Version header is missing: send one of ${list}` })
    } else if (!API_VERSION_PATTERN.test(version)) {
      issues.push({
        field: 'Api-Version',
        reason: `Api-Version must be a version like ${supportedVersions[0]} (YYYY-MM-DD)`,
      })
    }
    const contentType = c.req.header('content-type')
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase()
    if (mediaType !== 'application/json') {
      issues.push({
        field: 'Content-Type',
        reason:
          contentType === undefined
            ? 'Content-Type header is missing: send "Content-Type: application/json" on every request'
            : `Content-Type must be application/json (got ${JSON.stringify(contentType)})`,
      })
    }
    if (issues.length > 0) throw upstreamError(400, issues)
    if (version !== undefined && !supported.has(version)) {
      throw upstreamError(422, [
        { field: 'Api-Version', reason: `Api-Version ${version} is not a supported version; use ${list}` },
      ])
    }
    await next()
  }
}
