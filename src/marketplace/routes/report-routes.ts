/**
 * @module Partner reports behind the `REPORTS_TOKEN` bearer: `GET /reports/partners` (the list, for the
 * page) and `GET /reports/partners/:id?from=&to=` as JSON, or CSV with `Accept: text/csv` or `?format=csv`.
 * Without a configured token the reports do not exist (404).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context, Hono } from 'hono'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { reportToCsv } from '../reports/report-csv.ts'
import { parseReportRange } from '../reports/report-range.ts'
import { errorResponse } from './error-response.ts'

// biome-ignore lint/suspicious/noExplicitAny: the routes fit a sub-app of any Env
export function registerReportRoutes(api: Hono<any, any, any>, ctx: MarketplaceContext): void {
  const refusal = (c: Context): Response | undefined => {
    if (ctx.reportsToken === undefined) {
      return errorResponse(c, 404, 'not_found', 'Partner reports are off: set REPORTS_TOKEN to turn them on.')
    }
    if (!bearerMatches(c.req.header('Authorization'), ctx.reportsToken)) {
      c.header('WWW-Authenticate', 'Bearer realm="reports"')
      return errorResponse(c, 401, 'forbidden', 'Send Authorization: Bearer <REPORTS_TOKEN>.')
    }
    return undefined
  }

  api.get('/reports/partners', (c) => {
    const refused = refusal(c)
    if (refused) return refused
    c.header('Cache-Control', 'no-store')
    return c.json({
      partners: [...ctx.registry.values()].map((p) => ({
        id: p.id,
        name: p.name,
        tier: p.tier,
        enabled: p.enabled,
      })),
    })
  })

  api.get('/reports/partners/:id', async (c) => {
    const refused = refusal(c)
    if (refused) return refused
    const partnerId = c.req.param('id')
    if (!ctx.registry.has(partnerId))
      return errorResponse(c, 404, 'not_found', `No partner "${partnerId}" in the registry.`)
    const range = parseReportRange(c.req.query('from'), c.req.query('to'), ctx.now())
    if (!range.ok)
      return errorResponse(c, 400, 'validation_failed', 'The report range is invalid.', range.errors)
    const report = await ctx.ledger.partnerReport({ partnerId, from: range.from, to: range.to })
    c.header('Cache-Control', 'no-store')
    c.header('Vary', 'Accept')
    if (wantsCsv(c)) {
      c.header('Content-Type', 'text/csv; charset=utf-8')
      c.header('Content-Disposition', `attachment; filename="partner-${partnerId}-report.csv"`)
      return c.body(reportToCsv(report))
    }
    return c.json(report)
  })
}

function wantsCsv(c: Context): boolean {
  const format = c.req.query('format')
  if (format !== undefined) return format === 'csv'
  return /\btext\/csv\b/.test(c.req.header('Accept') ?? '')
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes before comparing. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  const given = createHash('sha256')
    .update(match?.[1] ?? '')
    .digest()
  const expected = createHash('sha256').update(token).digest()
  return timingSafeEqual(given, expected) && match !== null
}
