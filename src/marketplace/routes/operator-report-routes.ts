/**
 * @module The operator's own reports (`REPORTS_TOKEN` only; a partner's token is answered like an unknown
 * path): `GET /reports/consent/:leadId`, the proof of the consent a lead was given with
 * (docs/decisions/0105-consent-records.md), and `GET /reports/duplicates?from=&to=`, duplicate applications
 * per UTC day, JSON or CSV (`?format=csv` or `Accept: text/csv`) (docs/decisions/0106-duplicate-applicants.md), and
 * `GET /reports/placements?from=&to=`, the publisher's searches, leads, clicks and earnings per UTC day and
 * placement, JSON or CSV alike (docs/placements.md); and the review queue of applications held instead of
 * sent, `GET /reports/held-applications?from=&to=`, with `POST /reports/held-applications/:id/release`, which
 * releases the applicant's claim so the person's next application is sent.
 */
import { Hono } from 'hono'
import { UUID_PATTERN } from '../../contract/common.ts'
import { httpError } from '../../http/errors.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { duplicatesToCsv, placementsToCsv } from '../reports/report-csv.ts'
import { consentRecordAnswer, createReportAccess, csvFile, day, wantsCsv } from './report-access.ts'

/** Held applications one listing returns at most: a review queue, newest first. */
const HELD_LIST_LIMIT = 500

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

  app.get('/held-applications', async (c) => {
    access.operator(c)
    const range = access.range(c)
    const held = await ctx.ledger.heldApplications({ ...range, limit: HELD_LIST_LIMIT })
    c.header('Cache-Control', 'no-store')
    return c.json({ from: range.from.toISOString(), to: range.to.toISOString(), held })
  })

  app.post('/held-applications/:id/release', async (c) => {
    access.operator(c)
    const id = c.req.param('id')
    const released =
      UUID_PATTERN.test(id) &&
      (await ctx.ledger.releaseHeldApplication(id.toLowerCase(), new Date(ctx.timers.now())))
    if (!released) {
      throw httpError(
        404,
        'not_found',
        'No held application with this id awaits release: take an id from GET /api/reports/held-applications.',
      )
    }
    ctx.logger.info({ heldId: id.toLowerCase() }, 'held application released by the operator')
    c.header('Cache-Control', 'no-store')
    return c.json({ id: id.toLowerCase(), released: true })
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
