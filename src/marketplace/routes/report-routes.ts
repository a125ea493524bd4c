/**
 * @module Partner reports behind a bearer token: `REPORTS_TOKEN` (the operator: every partner) or a
 * partner's own token (its registry `reportsTokenEnv`: itself only; any other partner id is a 404, and
 * the list holds only itself). `GET /reports/partners` (the list, for the page),
 * `GET /reports/partners/:id?from=&to=` as JSON, or CSV one table per file (`Accept: text/csv` or
 * `?format=csv`, `&table=`), and `GET /reports/partners/:id/suppression`: the partner's leads that did not
 * click its offer, which it must not remarket to (docs/partner-interface.md). Without any token the reports do not exist.
 */
import { type Context, Hono } from 'hono'
import { httpError } from '../../http/errors.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import {
  DEFAULT_REPORT_TABLE,
  REPORT_TABLES,
  type ReportTable,
  reportToCsv,
  suppressionToCsv,
} from '../reports/report-csv.ts'
import { parseReportRange } from '../reports/report-range.ts'
import { type Caller, createPartnerAuth } from './partner-auth.ts'

/** Mounted at `/reports/partners`. */
export function reportRoutes(ctx: MarketplaceContext): Hono {
  const auth = createPartnerAuth(ctx)
  const caller = (c: Context): Caller => {
    if (!auth.enabled) {
      throw httpError(
        404,
        'not_found',
        "Partner reports are off: set REPORTS_TOKEN (the operator's) or a partner's reportsTokenEnv to turn them on.",
      )
    }
    return auth.authenticate(c)
  }
  /** The partner the caller may read; else the 404 (the same whether it does not exist or is another's). */
  const readable = (c: Context, who: Caller): string => {
    const partnerId = c.req.param('id') ?? ''
    if (ctx.registry.has(partnerId) && auth.mayRead(who, partnerId)) return partnerId
    throw httpError(404, 'not_found', `No partner "${partnerId.slice(0, 100)}" in the registry.`)
  }
  const range = (c: Context) => {
    const parsed = parseReportRange(c.req.query('from'), c.req.query('to'), ctx.timers.now())
    if (parsed.ok) return parsed
    throw httpError(
      400,
      'validation_failed',
      `The report range is invalid: ${parsed.errors.map((e) => e.reason).join('; ')}`,
      { errors: parsed.errors },
    )
  }

  const app = new Hono()
  app.get('/', (c) => {
    const who = caller(c)
    c.header('Cache-Control', 'no-store')
    return c.json({
      partners: [...ctx.registry.values()]
        .filter((p) => auth.mayRead(who, p.id))
        .map((p) => ({ id: p.id, name: p.name, tier: p.tier, enabled: p.enabled })),
    })
  })

  app.get('/:id', async (c) => {
    const partnerId = readable(c, caller(c))
    const csv = wantsCsv(c)
    const table = c.req.query('table') ?? DEFAULT_REPORT_TABLE
    if (csv && !(REPORT_TABLES as readonly string[]).includes(table)) {
      throw httpError(
        400,
        'validation_failed',
        `table=${JSON.stringify(table.slice(0, 40))} is not a report table: send one of ${REPORT_TABLES.join(', ')}.`,
        { errors: [{ field: 'table', reason: `table must be one of ${REPORT_TABLES.join(', ')}` }] },
      )
    }
    const r = range(c)
    const report = await ctx.ledger.partnerReport({ partnerId, from: r.from, to: r.to })
    c.header('Cache-Control', 'no-store')
    c.header('Vary', 'Accept')
    if (csv)
      return csvFile(
        c,
        `partner-${partnerId}-${table}-${day(r.from)}-${day(r.to)}.csv`,
        reportToCsv(report, table as ReportTable),
      )
    return c.json(report)
  })

  app.get('/:id/suppression', async (c) => {
    const partnerId = readable(c, caller(c))
    const r = range(c)
    const list = await ctx.ledger.suppressionList({ partnerId, from: r.from, to: r.to })
    c.header('Cache-Control', 'no-store')
    c.header('Vary', 'Accept')
    if (wantsCsv(c))
      return csvFile(
        c,
        `partner-${partnerId}-suppression-${day(r.from)}-${day(r.to)}.csv`,
        suppressionToCsv(list),
      )
    return c.json(list)
  })
  return app
}

function csvFile(c: Context, name: string, body: string): Response {
  c.header('Content-Type', 'text/csv; charset=utf-8')
  c.header('Content-Disposition', `attachment; filename="${name}"`)
  return c.body(body)
}

const day = (date: Date) => date.toISOString().slice(0, 10)

function wantsCsv(c: Context): boolean {
  const format = c.req.query('format')
  if (format !== undefined) return format === 'csv'
  return /\btext\/csv\b/.test(c.req.header('Accept') ?? '')
}
