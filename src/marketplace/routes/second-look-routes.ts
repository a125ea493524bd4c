/**
 * @module `POST /second-look` (lead intake, the work done by `intake/lead-intake.ts`) and
 * `GET /second-look/:uuid` (polling), with the rules of offer searches: session information from the live
 * request only, a 201 `{ accessToken, rateTable }`, and polls that need the access token (missing or wrong:
 * 404) and a well-formed uuid (else 400). Polls read through the in-memory search cache.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import type * as z from 'zod/mini'
import {
  ACCESS_TOKEN_HEADER,
  type CreatedSearch,
  LEAD_BODY_LIMIT_BYTES,
  WIDGET_HEADER,
} from '../../contract/bff.ts'
import { UUID_PATTERN } from '../../contract/common.ts'
import type { duplicateOfSchema } from '../../contract/consent.ts'
import { limitBody } from '../../http/body-limit.ts'
import { httpError } from '../../http/errors.ts'
import type { SearchSnapshot } from '../../ledger/index.ts'
import { createOfferLinker } from '../clicks/offer-links.ts'
import { IDEMPOTENCY_HEADER } from '../intake/idempotency.ts'
import { type IntakeRefusal, intakeLead, readLeadRequest } from '../intake/lead-intake.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { buildRateTable } from '../rate-table/build-rate-table.ts'

/** Mounted at `/second-look`; `beforeIntake` runs before `POST` only (the BFF's per-IP limit). */
export function secondLookRoutes(ctx: MarketplaceContext, beforeIntake: MiddlewareHandler[] = []): Hono {
  const app = new Hono()
  // Hono runs handlers of one route in registration order: these first, each calling next().
  app.post('/', limitBody(LEAD_BODY_LIMIT_BYTES))
  for (const middleware of beforeIntake) app.post('/', middleware)
  app.post('/', async (c) => {
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
      identity: () => ctx.clientIdentity(c),
      consentTexts: ctx.consentTexts,
      widgetHeader: c.req.header(WIDGET_HEADER),
      logger: ctx.logger,
    })
    if (request.kind === 'refused') throw refusal(request)
    const outcome = await intakeLead(ctx, request)
    if (outcome.kind === 'refused') throw refusal(outcome)
    // A retry: the same search, never a second fan-out.
    if (outcome.kind === 'replayed') c.header('Idempotent-Replayed', 'true')
    if (outcome.kind !== 'duplicate') return created(c, ctx, outcome.snapshot)
    // The applicant's first application within the window: its search, asked of no partner again.
    c.header(DUPLICATE_HEADER, 'true')
    return created(c, ctx, outcome.snapshot, { firstAppliedAt: outcome.firstAppliedAt.toISOString() })
  })

  app.get('/:uuid', async (c) => {
    const uuid = c.req.param('uuid')
    if (!UUID_PATTERN.test(uuid)) {
      throw httpError(400, 'bad_request', 'The path must end with the rate table uuid.', {
        errors: [{ field: 'uuid', reason: 'uuid must be a UUID (8-4-4-4-12 hex digits)' }],
      })
    }
    const token = c.req.header(ACCESS_TOKEN_HEADER)
    // Missing and wrong tokens answer like an unknown uuid: a search's existence is not disclosed.
    if (!token || !ctx.accessTokens.verify(token, uuid)) throw notFound()
    let snapshot: SearchSnapshot | undefined
    try {
      snapshot = await ctx.searches.get(uuid.toLowerCase())
    } catch {
      throw unavailable(1, 'The ledger is unavailable; poll again shortly.')
    }
    if (snapshot === undefined) throw notFound()
    c.header('Cache-Control', 'no-store')
    return c.json(rateTableOf(c, ctx, snapshot))
  })
  return app
}

/** Marks a 201 that answers a duplicate applicant with the first application's search. */
const DUPLICATE_HEADER = 'Second-Look-Duplicate'

/** The 201: a new access token for the search, and its rate table (`secondLook.duplicate` for a duplicate). */
function created(
  c: Context,
  ctx: MarketplaceContext,
  snapshot: SearchSnapshot,
  duplicate?: z.infer<typeof duplicateOfSchema>,
): Response {
  const rateTable = rateTableOf(c, ctx, snapshot)
  const body: CreatedSearch = {
    accessToken: ctx.accessTokens.issue(snapshot.lead.searchUuid),
    rateTable:
      duplicate && rateTable.secondLook
        ? { ...rateTable, secondLook: { ...rateTable.secondLook, duplicate } }
        : rateTable,
  }
  c.header('Cache-Control', 'no-store')
  return c.json(body, 201)
}

function rateTableOf(c: Context, ctx: MarketplaceContext, snapshot: SearchSnapshot) {
  const base = ctx.publicBaseUrl ?? new URL(c.req.url).origin
  // Click links are absolute: the widget may run on the publisher's origin, not ours.
  return buildRateTable(snapshot, ctx.registry, {
    links: createOfferLinker(`${base}${apiPrefix(c)}`, ctx.clickSigner),
    now: ctx.timers.now(),
    windowMs: ctx.windowMs,
    firstLookDeadlineMs: ctx.firstLookDeadlineMs,
  })
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

function notFound() {
  return httpError(404, 'not_found', 'No such second-look search, or its access token is missing or wrong.')
}
