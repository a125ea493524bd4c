/**
 * @module `POST /second-look` (lead intake) and `GET /second-look/:uuid` (polling), with the rules of
 * offer searches: session information from the live request only, a 201 `{ accessToken, rateTable }`, and
 * polls that need the access token (missing or wrong: 404) and a well-formed uuid (else 400).
 *
 * Write-ahead: a lead reaches partners only once it and its requests are committed. When the ledger cannot
 * write (down, or slower than its timeout) the answer is 503 with `Retry-After` and nothing is sent; a retry
 * with the same `Idempotency-Key` is then a fresh submit. Polls read through the in-memory search cache.
 */
import { randomUUID } from 'node:crypto'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { parseJsonBounded } from '../../bff/json-body.ts'
import { ACCESS_TOKEN_HEADER, type CreatedSearch } from '../../contract/bff.ts'
import { toFieldIssues, UUID_PATTERN } from '../../contract/common.ts'
import { type Lead, leadInputSchema, leadSessionInformationSchema } from '../../contract/partner.ts'
import type { SearchSnapshot, SentRequest } from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import { createOfferLinker } from '../clicks/offer-links.ts'
import { partnerWindowMs } from '../fan-out/run-lead.ts'
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY } from '../intake/idempotency.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import { buildRateTable } from '../rate-table/build-rate-table.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'
import { errorResponse } from './error-response.ts'

/** Nesting a lead can need (object, section, value) with room to spare. */
const LEAD_MAX_DEPTH = 8

export function registerSecondLookRoutes(
  // biome-ignore lint/suspicious/noExplicitAny: the routes fit a sub-app of any Env
  api: Hono<any, any, any>,
  ctx: MarketplaceContext,
  beforeIntake: MiddlewareHandler[] = [],
): void {
  const windowOf = (partners: PartnerRegistryEntry[]) =>
    Math.max(0, ...partners.map((p) => partnerWindowMs(p, ctx.windowMs)))
  // Hono runs handlers of one route in registration order: these first, each calling next().
  for (const middleware of beforeIntake) api.post('/second-look', middleware)
  api.post('/second-look', async (c) => {
    if (ctx.draining()) {
      return unavailable(c, 1, 'This server is shutting down; nothing was sent. Send the lead again.')
    }
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
    // Bounded before parsing: a lead nests at most 3 deep; a 5,000-deep array once killed the fan-out.
    const parsed = parseJsonBounded(await c.req.text(), LEAD_MAX_DEPTH)
    if (!parsed.ok) {
      return errorResponse(
        c,
        400,
        'bad_request',
        `The body must be a JSON lead object (docs/partner-interface.md): ${parsed.reason}`,
        [{ field: parsed.field, reason: parsed.reason }],
      )
    }
    const body = parsed.value
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
    // docs/partner-interface.md: sessionInformation is the end consumer's; anything the body says about it is ignored.
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
    // The latest the lead can end: first look closes at its deadline at the latest, then each second-look
    // partner has its whole window.
    const leadMs =
      first.length > 0
        ? Math.min(ctx.firstLookDeadlineMs, windowOf(first)) + windowOf(second)
        : windowOf(second)
    const newLead = {
      id: randomUUID(),
      searchUuid: randomUUID(),
      state: personal.state,
      zip: personal.zipcode.slice(0, 5),
      idempotencyKey: key,
      bodyHash: key === undefined ? undefined : ctx.hashBody(body),
      createdAt: sentAt,
      deadlineAt: new Date(now + leadMs),
    }
    const run = { lead: lead.data, leadId: newLead.id, requests, nextTier }
    let result: Awaited<ReturnType<typeof ctx.ledger.createLead>>
    try {
      result = await ctx.ledger.createLead(newLead, requests)
    } catch (error) {
      ctx.logger.error(
        { leadId: newLead.id, code: error instanceof LedgerError ? error.code : 'unknown' },
        'second-look lead refused: the ledger cannot record it, so no partner was sent it',
      )
      return unavailable(
        c,
        LEDGER_RETRY_AFTER_SECONDS,
        'The lead could not be recorded, so it was sent to no partner. Send it again shortly.',
      )
    }

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
      let snapshot: SearchSnapshot | undefined
      try {
        snapshot = await ctx.searches.get(result.lead.searchUuid)
      } catch {
        return unavailable(
          c,
          LEDGER_RETRY_AFTER_SECONDS,
          'The ledger is unavailable; send the lead again shortly.',
        )
      }
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
    if (requests.length > 0) ctx.startRun(row.searchUuid, run)
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
    let snapshot: SearchSnapshot | undefined
    try {
      snapshot = await ctx.searches.get(uuid.toLowerCase())
    } catch {
      return unavailable(c, 1, 'The ledger is unavailable; poll again shortly.')
    }
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

/** Seconds a client waits before sending a lead the ledger could not take: a blip, or a failover. */
const LEDGER_RETRY_AFTER_SECONDS = 2

function unavailable(c: Context, retryAfterSeconds: number, message: string): Response {
  c.header('Retry-After', String(retryAfterSeconds))
  return errorResponse(c, 503, 'upstream_unavailable', message)
}

function notFound(c: Context): Response {
  return errorResponse(
    c,
    404,
    'not_found',
    'No such second-look search, or its access token is missing or wrong.',
  )
}
