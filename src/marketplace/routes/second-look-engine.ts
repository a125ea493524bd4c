/**
 * @module The second look as a search engine (`http/search-resource.ts`), which the BFF serves at
 * `/api/second-look` with its 201 `{ accessToken, rateTable }`, its poll guard and its limits: `create` is
 * lead intake (the work done by `intake/lead-intake.ts`), `poll` reads the lead's rate table through the
 * in-memory search cache. Session information comes from the live request only.
 */
import type { Context } from 'hono'
import type * as z from 'zod/mini'
import { LEAD_BODY_LIMIT_BYTES, WIDGET_HEADER } from '../../contract/bff.ts'
import type { duplicateOfSchema } from '../../contract/consent.ts'
import type { SessionInformation } from '../../contract/offer-search.ts'
import { httpError } from '../../http/errors.ts'
import type { CreatedRateTable, SearchEngine } from '../../http/search-resource.ts'
import type { SearchSnapshot } from '../../ledger/index.ts'
import { createOfferLinker } from '../clicks/offer-links.ts'
import { IDEMPOTENCY_HEADER } from '../intake/idempotency.ts'
import { type IntakeRefusal, intakeLead, readLeadRequest } from '../intake/lead-intake.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { buildRateTable } from '../rate-table/build-rate-table.ts'
import { heldView } from '../rate-table/held-view.ts'

/** The marketplace's search: a lead in, its rate table out. */
export function secondLookEngine(ctx: MarketplaceContext): SearchEngine {
  return {
    noun: 'second-look search',
    bodyLimitBytes: LEAD_BODY_LIMIT_BYTES,
    refusedToBots: 'send second-look leads (each one goes to lending partners)',
    create: (c, visitor) => createLead(c, visitor, ctx),
    async poll(uuid, c) {
      let snapshot: SearchSnapshot | undefined
      try {
        snapshot = await ctx.searches.get(uuid.toLowerCase())
      } catch {
        throw unavailable(1, 'The ledger is unavailable; poll again shortly.')
      }
      return snapshot && rateTableOf(c, ctx, snapshot)
    },
  }
}

/** Intake: a new search, a retry's (never a second fan-out) or a duplicate applicant's first one. */
async function createLead(
  c: Context,
  visitor: () => SessionInformation,
  ctx: MarketplaceContext,
): Promise<CreatedRateTable> {
  if (ctx.draining()) {
    throw httpError(
      503,
      'shutting_down',
      'This server is shutting down; nothing was sent. Send the lead again.',
      {
        retryAfterSeconds: 1,
      },
    )
  }
  const request = await readLeadRequest({
    idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
    bodyText: () => c.req.text(),
    identity: visitor,
    consentTexts: ctx.consentTexts,
    widgetHeader: c.req.header(WIDGET_HEADER),
    now: ctx.timers.now(),
    sampleSsns: ctx.sampleApplicants,
    logger: ctx.logger,
  })
  if (request.kind === 'refused') throw refusal(request)
  const outcome = await intakeLead(ctx, request)
  if (outcome.kind === 'refused') throw refusal(outcome)
  const searchUuid = outcome.snapshot.lead.searchUuid
  const rateTable = rateTableOf(c, ctx, outcome.snapshot)
  if (outcome.kind === 'replayed')
    return { searchUuid, rateTable, headers: { 'Idempotent-Replayed': 'true' } }
  // The same applicant's first application within the window: its search, asked of no partner again.
  if (outcome.kind === 'duplicate') return { searchUuid, rateTable, headers: { [DUPLICATE_HEADER]: 'true' } }
  return { searchUuid, rateTable }
}

/** Marks a 201 that answers a duplicate applicant with the first application's search. */
const DUPLICATE_HEADER = 'Second-Look-Duplicate'

function rateTableOf(c: Context, ctx: MarketplaceContext, snapshot: SearchSnapshot) {
  const base = ctx.publicBaseUrl ?? new URL(c.req.url).origin
  const now = ctx.timers.now()
  // Click links are absolute: the widget may run on the publisher's origin, not ours.
  const table = buildRateTable(heldView(snapshot, now), ctx.registry, {
    links: createOfferLinker(`${base}${apiPrefix(c)}`, ctx.clickSigner, {
      counted: snapshot.duplicate === undefined,
    }),
    now,
    windowMs: ctx.windowMs,
    firstLookDeadlineMs: ctx.firstLookDeadlineMs,
  })
  if (snapshot.duplicate === undefined || table.secondLook === undefined) return table
  const duplicate: z.infer<typeof duplicateOfSchema> = {
    firstAppliedAt: snapshot.duplicate.firstAppliedAt.toISOString(),
  }
  return { ...table, secondLook: { ...table.secondLook, duplicate } }
}

/** The mount point of the API sub-app (`/api`), read from the matched route so links follow it. */
function apiPrefix(c: Context): string {
  const path = c.req.path
  const at = path.lastIndexOf('/second-look')
  return at >= 0 ? path.slice(0, at) : '/api'
}

function refusal(r: IntakeRefusal) {
  return httpError(r.status, r.code, r.message, { errors: r.errors, retryAfterSeconds: r.retryAfterSeconds })
}

function unavailable(retryAfterSeconds: number, message: string) {
  return httpError(503, 'upstream_unavailable', message, { retryAfterSeconds })
}
