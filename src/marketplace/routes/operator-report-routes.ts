/**
 * @module The operator's own reports (`REPORTS_TOKEN` only; a partner's token is answered like an unknown
 * path): `GET /reports/consent/:leadId`, the proof of the consent a lead was given with
 * (docs/decisions/0105-consent-records.md), and `GET /reports/duplicates?from=&to=`, duplicate applications
 * per UTC day, JSON or CSV (`?format=csv` or `Accept: text/csv`) (docs/decisions/0106-duplicate-applicants.md), and
 * `GET /reports/placements?from=&to=`, the publisher's searches, leads, clicks and earnings per UTC day and
 * placement, JSON or CSV alike (docs/placements.md).
 */
import { Hono } from 'hono'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { duplicatesToCsv, placementsToCsv } from '../reports/report-csv.ts'
import { consentRecordAnswer, createReportAccess, csvFile, day, wantsCsv } from './report-access.ts'

/** Mounted at `/reports`. */
export function operatorReportRoutes(ctx: MarketplaceContext): Hono {
  const access = createReportAccess(ctx)
  const app = new Hono()

  app.get('/consent/:leadId', async (c) => {
    access.operator(c)
    return consentRecordAnswer(
      c,
      c.req.param('leadId'),
      (leadId) => ctx.ledger.consentRecord({ leadId }),
      'No consent record for this lead id (the rate table’s leadUuid); records are kept CONSENT_RETENTION_DAYS.',
    )
  })

  app.get('/duplicates', async (c) => {
    access.operator(c)
    const range = access.range(c)
    const report = await ctx.ledger.duplicatesReport(range)
    c.header('Cache-Control', 'no-store')
    c.header('Vary', 'Accept')
    if (wantsCsv(c)) {
      return csvFile(c, `duplicates-${day(range.from)}-${day(range.to)}.csv`, duplicatesToCsv(report))
    }
    return c.json(report)
  })

  app.get('/placements', async (c) => {
    access.operator(c)
    const range = access.range(c)
    // Each partner's contract from the registry: earnings follow the partner reports' spend rules.
    const pays = new Map([...ctx.registry.values()].map((p) => [p.id, p.pays ?? 'per_click'] as const))
    const report = await ctx.ledger.placementsReport({ ...range, pays })
    c.header('Cache-Control', 'no-store')
    c.header('Vary', 'Accept')
    if (wantsCsv(c)) {
      return csvFile(c, `placements-${day(range.from)}-${day(range.to)}.csv`, placementsToCsv(report))
    }
    return c.json(report)
  })
  return app
}
