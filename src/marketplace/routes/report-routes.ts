/**
 * @module Partner reports behind a bearer token: `REPORTS_TOKEN` (the operator: every partner) or a
 * partner's own token (its registry `reportsTokenEnv`: itself only; any other partner id is a 404, and
 * the list holds only itself). `GET /reports/partners` (the list, for the page),
 * `GET /reports/partners/:id?from=&to=` as JSON, or CSV one table per file (`Accept: text/csv` or
 * `?format=csv`, `&table=`), `GET /reports/partners/:id/suppression`: the partner's leads that did not
 * click its offer, which it must not remarket to (docs/partner-interface.md), and
 * `GET /reports/partners/:id/consent/:requestId`: the consent record of a lead the partner was sent, by the
 * `Idempotency-Key` it received it with. Without any token the reports do not exist.
 */
import { Hono } from 'hono'
import { httpError } from '../../http/errors.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import {
  DEFAULT_REPORT_TABLE,
  REPORT_TABLES,
  type ReportTable,
  reportToCsv,
  suppressionToCsv,
} from '../reports/report-csv.ts'
import { consentRecordAnswer, createReportAccess, csvFile, day, wantsCsv } from './report-access.ts'

/** Mounted at `/reports/partners`. */
export function reportRoutes(ctx: MarketplaceContext): Hono {
  const { caller, mayRead, readable, range } = createReportAccess(ctx)

  const app = new Hono()
  app.get('/', (c) => {
    const who = caller(c)
    c.header('Cache-Control', 'no-store')
    return c.json({
      partners: [...ctx.registry.values()]
        .filter((p) => mayRead(who, p.id))
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
    const entry = ctx.registry.get(partnerId)
    const report = await ctx.ledger.partnerReport({
      partnerId,
      from: r.from,
      to: r.to,
      pays: entry?.pays,
      sharePlacement: entry?.sendPlacement,
    })
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

  // The request id is our id for this lead and partner: the Idempotency-Key the partner received it with.
  app.get('/:id/consent/:requestId', async (c) => {
    const partnerId = readable(c, caller(c))
    return consentRecordAnswer(
      c,
      c.req.param('requestId'),
      (requestId) => ctx.ledger.consentRecord({ partnerId, requestId }),
      'No consent record for this request: give the Idempotency-Key a lead of yours was sent with (records are kept CONSENT_RETENTION_DAYS).',
    )
  })
  return app
}
