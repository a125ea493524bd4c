/**
 * @module `POST /second-look` (lead intake) and `GET /second-look/:uuid` (polling), with the rules of
 * offer searches: session information from the live request only, a 201 `{ accessToken, rateTable }`, and
 * polls that need the access token (missing or wrong: 404) and a well-formed uuid (else 400).
 */
import { randomUUID } from 'node:crypto'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { ACCESS_TOKEN_HEADER, type CreatedSearch } from '../../contract/bff.ts'
import { toFieldIssues, UUID_PATTERN } from '../../contract/common.ts'
import { type Lead, leadInputSchema, leadSessionInformationSchema } from '../../contract/partner.ts'
import type { SearchSnapshot, SentRequest } from '../../ledger/index.ts'
import { createOfferLinker } from '../clicks/offer-links.ts'
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY } from '../intake/idempotency.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { buildRateTable } from '../rate-table/build-rate-table.ts'
import { errorResponse } from './error-response.ts'

export function registerSecondLookRoutes(
  // biome-ignore lint/suspicious/noExplicitAny: the routes fit a sub-app of any Env
  api: Hono<any, any, any>,
  ctx: MarketplaceContext,
  beforeIntake: MiddlewareHandler[] = [],
): void {
  // Hono runs handlers of one route in registration order: these first, each calling next().
  for (const middleware of beforeIntake) api.post('/second-look', middleware)
  api.post('/second-look', async (c) => {
    const key = c.req.header(IDEMPOTENCY_HEADER)
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      return errorResponse(
        c,
        400,
        'bad_request',
        `${IDEMPOTENCY_HEADER} must be 1-200 characters of A-Z a-z 0-9 _ . : -`,
        [{ field: IDEMPOTENCY_HEADER, reason: 'use a UUID per submitted lead' }],
      )
    }
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return errorResponse(c, 400, 'bad_request', 'The body must be a JSON lead object (seed 001).')
    }
    const input = leadInputSchema.safeParse(body)
    if (!input.success) {
      return errorResponse(
        c,
        400,
        'validation_failed',
        'The lead is invalid; fix the fields listed.',
        toFieldIssues(input.error),
      )
    }
    // Seed 001: sessionInformation is the end consumer's; anything the body says about it is ignored.
    const session = leadSessionInformationSchema.safeParse(ctx.clientIdentity(c))
    if (!session.success) {
      ctx.logger.error('client identity is unusable: check the BFF trusted proxies')
      return errorResponse(
        c,
        400,
        'validation_failed',
        'The session of this request cannot be forwarded.',
        toFieldIssues(session.error).map((e) => ({ ...e, field: `sessionInformation.${e.field}` })),
      )
    }
    const lead = { data: { ...input.data, sessionInformation: session.data } as Lead }
    const now = ctx.now()
    const enabled = [...ctx.registry.values()].filter((p) => p.enabled)
    const first = enabled.filter((p) => p.tier === 'first')
    const second = enabled.filter((p) => p.tier === 'second')
    const [startTier, nextTier] = first.length > 0 ? [first, second] : [second, []]
    const sentAt = new Date(now)
    const requests: SentRequest[] = startTier.map((p) => ({
      id: randomUUID(),
      partnerId: p.id,
      tier: p.tier,
      sentAt,
    }))
    const personal = lead.data.personalInformation
    const newLead = {
      id: randomUUID(),
      searchUuid: randomUUID(),
      state: personal.state,
      zip: personal.zipcode.slice(0, 5),
      idempotencyKey: key,
      bodyHash: key === undefined ? undefined : ctx.hashBody(body),
      createdAt: sentAt,
      deadlineAt: new Date(now + ctx.deadlineMs),
    }
    const run = {
      lead: lead.data,
      leadId: newLead.id,
      deadlineAt: newLead.deadlineAt.getTime(),
      requests,
      nextTier,
    }
    // Without a key the lead cannot be a retry, so partners get it at once, while the lead is written: the
    // ledger applies writes in order, so every reply lands after the lead it belongs to.
    const early = key === undefined && requests.length > 0
    if (early) ctx.startRun(newLead.searchUuid, run)
    const result = await ctx.ledger.createLead(newLead, requests)

    if (!result.created) {
      if (result.lead.bodyHash !== ctx.hashBody(body)) {
        return errorResponse(
          c,
          409,
          'conflict',
          `This ${IDEMPOTENCY_HEADER} was already used with a different lead; send a new key for a new lead.`,
        )
      }
      // A retry: the same search, never a second fan-out.
      const snapshot = await ctx.ledger.getSearch(result.lead.searchUuid)
      if (snapshot === undefined) return errorResponse(c, 500, 'internal', 'The original search is gone.')
      c.header('Idempotent-Replayed', 'true')
      return created(c, ctx, snapshot)
    }

    const { lead: row } = result
    ctx.logger.info(
      {
        leadId: row.id,
        searchUuid: row.searchUuid,
        state: row.state,
        zip: row.zip,
        partners: requests.length,
      },
      'second-look lead accepted',
    )
    if (!early && requests.length > 0) ctx.startRun(row.searchUuid, run)
    return created(c, ctx, {
      lead: row,
      pending: requests.map((r) => ({ partnerId: r.partnerId, tier: r.tier })),
      displayed: [],
    })
  })

  api.get('/second-look/:uuid', async (c) => {
    const uuid = c.req.param('uuid')
    if (!UUID_PATTERN.test(uuid)) {
      return errorResponse(c, 400, 'bad_request', 'The path must end with the rate table uuid.', [
        { field: 'uuid', reason: 'uuid must be a UUID (8-4-4-4-12 hex digits)' },
      ])
    }
    const token = c.req.header(ACCESS_TOKEN_HEADER)
    // Missing and wrong tokens answer like an unknown uuid: a search's existence is not disclosed.
    if (!token || !ctx.accessTokens.verify(token, uuid)) return notFound(c)
    const snapshot = await ctx.ledger.getSearch(uuid.toLowerCase())
    if (snapshot === undefined) return notFound(c)
    c.header('Cache-Control', 'no-store')
    return c.json(rateTableOf(c, ctx, snapshot))
  })
}

function created(c: Context, ctx: MarketplaceContext, snapshot: SearchSnapshot): Response {
  const body: CreatedSearch = {
    accessToken: ctx.accessTokens.issue(snapshot.lead.searchUuid),
    rateTable: rateTableOf(c, ctx, snapshot),
  }
  c.header('Cache-Control', 'no-store')
  return c.json(body, 201)
}

function rateTableOf(c: Context, ctx: MarketplaceContext, snapshot: SearchSnapshot) {
  const base = ctx.publicBaseUrl ?? new URL(c.req.url).origin
  // Click links are absolute: the widget may run on the publisher's origin, not ours.
  return buildRateTable(snapshot, ctx.registry, {
    links: createOfferLinker(`${base}${apiPrefix(c)}`, ctx.clickSigner),
    now: ctx.now(),
  })
}

/** The mount point of the API sub-app (`/api`), read from the matched route so links follow it. */
function apiPrefix(c: Context): string {
  const path = c.req.path
  const at = path.lastIndexOf('/second-look')
  return at >= 0 ? path.slice(0, at) : '/api'
}

function notFound(c: Context): Response {
  return errorResponse(
    c,
    404,
    'not_found',
    'No such second-look search, or its access token is missing or wrong.',
  )
}
