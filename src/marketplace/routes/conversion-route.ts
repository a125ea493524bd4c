/**
 * @module `POST /conversions`: a partner's conversion postback (docs/partner-interface.md: partners pay "on click or on
 * conversion"). Authenticated by the partner's own token (registry `reportsTokenEnv`), which also says
 * whose lead it is; idempotent per partner `lead_id`: the first postback is recorded (201), a repeat
 * returns that first conversion unchanged (200, `Idempotent-Replayed: true`).
 */
import { Hono } from 'hono'
import * as z from 'zod/mini'
import { toFieldIssues } from '../../contract/common.ts'
import { limitBody } from '../../http/body-limit.ts'
import { httpError } from '../../http/errors.ts'
import type { ConversionRecord, RecordConversionResult } from '../../ledger/index.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import type { ConversionResult } from '../second-look-metrics.ts'
import { delivered } from './delivered.ts'

import { createPartnerAuth } from './partner-auth.ts'

const CONVERSION_RESULT: Record<RecordConversionResult['kind'], ConversionResult> = {
  created: 'recorded',
  duplicate: 'repeat',
  'unknown-lead': 'unknown_lead',
  'not-shown': 'not_shown',
}

/** A conversion dated this far ahead of our clock is a mistake, not clock skew. */
const MAX_FUTURE_MS = 5 * 60_000
/**
 * Ceiling of one conversion's `amount`, USD (docs/partner-interface.md): far above any loan commission, low
 * enough that no sum of conversions leaves the exact range of a number.
 */
const MAX_CONVERSION_AMOUNT = 1_000_000
/** Floor of `amount`, USD: one cent, the unit it is stored in. */
const MIN_CONVERSION_AMOUNT = 0.01

/**
 * True when `value` has at most two decimals (a whole number of cents), allowing only for binary floating
 * point's error (`19.99 * 100` is 1998.9999999999998), which is relative to the size of the number.
 */
const wholeCents = (value: number) => {
  const cents = value * 100
  return Math.abs(Math.round(cents) - cents) <= 1e-11 * Math.max(1, Math.abs(cents))
}

const conversionSchema = z.strictObject(
  {
    lead_id: z
      .string({ error: 'lead_id is required: the lead_id your reply gave the lead' })
      .check(
        z.minLength(1, { error: 'lead_id must not be empty' }),
        z.maxLength(200, { error: 'lead_id must be at most 200 characters' }),
      ),
    converted_at: z.optional(
      z.string().check(
        z.iso.datetime({
          offset: true,
          error: 'converted_at must be an ISO 8601 timestamp, e.g. 2026-03-01T12:00:00Z',
        }),
      ),
    ),
    amount: z.optional(
      z.number({ error: 'amount must be a number of US dollars, e.g. 125.50' }).check(
        // gte, not gt: 1e-14 is more than 0 yet rounds to 0 cents, a conversion of nothing.
        z.gte(MIN_CONVERSION_AMOUNT, {
          error: `amount must be at least ${MIN_CONVERSION_AMOUNT} (US dollars, i.e. one cent); leave it out when the contract pays per click`,
        }),
        z.lte(MAX_CONVERSION_AMOUNT, {
          error: `amount must be at most ${MAX_CONVERSION_AMOUNT} (US dollars)`,
        }),
        z.refine(wholeCents, { error: 'amount must have at most 2 decimals (whole cents), e.g. 125.50' }),
      ),
    ),
  },
  { error: 'the body must be a JSON object { "lead_id": "...", "converted_at"?: "...", "amount"?: 0 }' },
)

/** A postback is a few fields; 16 KiB, as a search body. */
const CONVERSION_BODY_LIMIT_BYTES = 16 * 1024

/** Mounted at `/conversions`. */
// long-function: one route: a postback's checks in order (the partner's token, the body, converted_at's bounds, the lead it names, whether its offer was shown), each answering its own status
export function conversionRoutes(ctx: MarketplaceContext): Hono {
  const auth = createPartnerAuth(ctx)
  const app = new Hono()
  app.post('/', limitBody(CONVERSION_BODY_LIMIT_BYTES), async (c) => {
    if (!auth.enabled) {
      throw httpError(404, 'not_found', "Conversions are off: set the partner's reportsTokenEnv.")
    }
    const who = auth.authenticate(c)
    if (who.kind !== 'partner') {
      throw httpError(
        403,
        'forbidden',
        "A conversion is posted by its partner, with the partner's own token (reportsTokenEnv), not REPORTS_TOKEN.",
      )
    }
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      throw httpError(400, 'bad_request', 'The body must be JSON: { "lead_id": "..." }.')
    }
    const parsed = conversionSchema.safeParse(body)
    if (!parsed.success) {
      throw httpError(400, 'validation_failed', 'The conversion is invalid; fix the fields listed.', {
        errors: toFieldIssues(parsed.error),
      })
    }
    const now = ctx.timers.now()
    const convertedAt = parsed.data.converted_at ? new Date(parsed.data.converted_at) : new Date(now)
    if (convertedAt.getTime() > now + MAX_FUTURE_MS) {
      throw httpError(400, 'validation_failed', 'converted_at is in the future.', {
        errors: [
          {
            field: 'converted_at',
            reason: `converted_at must not be more than ${MAX_FUTURE_MS / 60_000} minutes ahead of our clock: send when the lead converted`,
          },
        ],
      })
    }
    const partnerLead = {
      partnerId: who.partner.id,
      partnerLeadId: parsed.data.lead_id,
      partnerLeadIdHash: ctx.hashPartnerLeadId(parsed.data.lead_id),
    }
    // A lead converts after it was sent: an earlier date (1970, a wrong time zone) is a partner's bug
    // that would date the conversion outside every report of the lead. An unknown id falls through to 404.
    const sentAt = parsed.data.converted_at ? await ctx.ledger.firstSentAt(partnerLead) : undefined
    if (sentAt !== undefined && convertedAt.getTime() < sentAt.getTime()) {
      throw httpError(400, 'validation_failed', 'converted_at is before the lead was sent.', {
        errors: [
          {
            field: 'converted_at',
            reason: `converted_at must not be before the lead was sent to you (${sentAt.toISOString()}): send when the lead converted, with its time zone`,
          },
        ],
      })
    }
    const result = await delivered(ctx, 'conversion', () =>
      ctx.ledger.recordConversion({
        ...partnerLead,
        convertedAt,
        receivedAt: new Date(now),
        amountCents: parsed.data.amount === undefined ? undefined : Math.round(parsed.data.amount * 100),
      }),
    )
    ctx.metrics.conversion(CONVERSION_RESULT[result.kind])
    c.header('Cache-Control', 'no-store')
    if (result.kind === 'unknown-lead') {
      throw httpError(
        404,
        'not_found',
        `No lead sent to ${who.partner.id} was answered with this lead_id: post the lead_id your reply gave the lead.`,
      )
    }
    if (result.kind === 'not-shown') {
      throw httpError(
        409,
        'conflict',
        `None of ${who.partner.id}'s offers for this lead was displayed or clicked: a conversion is accepted only for a lead that saw or clicked your offer (docs/partner-interface.md).`,
      )
    }
    ctx.logger.info(
      { partnerId: who.partner.id, leadId: result.conversion.leadId, first: result.kind === 'created' },
      'conversion postback',
    )
    if (result.kind === 'duplicate') c.header('Idempotent-Replayed', 'true')
    return c.json({ conversion: toWire(result.conversion) }, result.kind === 'created' ? 201 : 200)
  })
  return app
}

function toWire(conversion: ConversionRecord) {
  return {
    id: conversion.id,
    lead_id: conversion.partnerLeadId,
    converted_at: conversion.convertedAt.toISOString(),
    received_at: conversion.receivedAt.toISOString(),
    amount: conversion.amountCents === null ? null : conversion.amountCents / 100,
    currency: 'USD',
  }
}
