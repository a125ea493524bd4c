/**
 * @module What every report route shares: who is asking (off without any token: 404; a missing or wrong
 * bearer: 401), which partner the caller may read (another's is the same 404 as an unknown one), the
 * operator-only gate (a partner's token is answered like an unknown path), the `from`/`to` range, and CSV.
 */
import type { Context } from 'hono'
import { UUID_PATTERN } from '../../contract/common.ts'
import { httpError } from '../../http/errors.ts'
import type { ConsentRecord } from '../../ledger/index.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { parseReportRange } from '../reports/report-range.ts'
import { type Caller, createPartnerAuth } from './partner-auth.ts'

export interface ReportAccess {
  caller(c: Context): Caller
  /** May this caller read this partner? */
  mayRead(who: Caller, partnerId: string): boolean
  /** The partner `:id` the caller may read; else the 404 (the same whether it does not exist or is another's). */
  readable(c: Context, who: Caller): string
  /** Throws the 404 unless the caller is the operator (`REPORTS_TOKEN`). */
  operator(c: Context): void
  /** `?from=&to=` as whole UTC days; a bad range is a 400 saying what is wrong. */
  range(c: Context): { from: Date; to: Date }
}

export function createReportAccess(ctx: MarketplaceContext): ReportAccess {
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
  return {
    caller,
    mayRead: (who, partnerId) => auth.mayRead(who, partnerId),
    readable(c, who) {
      const partnerId = c.req.param('id') ?? ''
      if (ctx.registry.has(partnerId) && auth.mayRead(who, partnerId)) return partnerId
      throw httpError(404, 'not_found', `No partner "${partnerId.slice(0, 100)}" in the registry.`)
    },
    operator(c) {
      if (caller(c).kind === 'operator') return
      throw httpError(404, 'not_found', 'Not found: this report is the operator’s (REPORTS_TOKEN).')
    },
    range(c) {
      const parsed = parseReportRange(c.req.query('from'), c.req.query('to'), ctx.timers.now())
      if (parsed.ok) return parsed
      throw httpError(
        400,
        'validation_failed',
        `The report range is invalid: ${parsed.errors.map((e) => e.reason).join('; ')}`,
        { errors: parsed.errors },
      )
    },
  }
}

export function csvFile(c: Context, name: string, body: string): Response {
  c.header('Content-Type', 'text/csv; charset=utf-8')
  c.header('Content-Disposition', `attachment; filename="${name}"`)
  return c.body(body)
}

export const day = (date: Date) => date.toISOString().slice(0, 10)

export function wantsCsv(c: Context): boolean {
  const format = c.req.query('format')
  if (format !== undefined) return format === 'csv'
  return /\btext\/csv\b/.test(c.req.header('Accept') ?? '')
}

/**
 * A consent record as JSON (`no-store`), read by `read` from the id in the path (a uuid, lower-cased), or the
 * 404 that says which id to give: the same answer whether the id is malformed, unknown or not the caller's.
 */
export async function consentRecordAnswer(
  c: Context,
  id: string,
  read: (id: string) => Promise<ConsentRecord | undefined>,
  missing: string,
): Promise<Response> {
  const record = UUID_PATTERN.test(id) ? await read(id.toLowerCase()) : undefined
  c.header('Cache-Control', 'no-store')
  if (record === undefined) throw httpError(404, 'not_found', missing)
  return c.json(record)
}
