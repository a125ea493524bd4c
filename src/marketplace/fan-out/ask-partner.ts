/**
 * @module One partner asked for one lead, as the lead's run does it: the call over HTTP (`call-partner.ts`),
 * its offers judged (`offer-problems.ts`: PII, links, the bid ceiling), and the reply as the ledger records it,
 * with nothing of the lead in its reason or partner lead id; as a client span of the lead's trace. Also the
 * record of a request closed without an answer (`unanswered`), which a takeover writes too.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Dispatcher } from 'undici'
import type { Timers } from '../../http/timers.ts'
import { failSpan, inSpan, SpanKind } from '../../http/trace.ts'
import type { OfferRecord, ReplyRecord, SentRequest } from '../../ledger/index.ts'
import type { Scorer } from '../auction/score.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'
import type { PartnerRequestOutcome } from '../second-look-metrics.ts'
import { callPartner } from './call-partner.ts'
import { droppedReason, offerProblems } from './offer-problems.ts'
import type { PartnerLeadIdHasher } from './partner-lead-id-hash.ts'
import type { PiiFinder } from './pii-finder.ts'
import { redactLeadId, redactReason } from './redact.ts'

/** What asking a partner needs of the lead's run. */
export interface AskContext {
  dispatcher: Dispatcher
  timers: Timers
  logger: Logger
  scorer: Scorer
  maxReplyBytes: number
  /** Aborts the call: the end of a shutdown's drain, or a lost lease. */
  shutdown: AbortSignal
  /** Keyed hash of a partner's raw `lead_id`, stored for conversions to match on. */
  hashPartnerLeadId: PartnerLeadIdHasher
}

/** `dropped`: approved, but every offer broke the contract (the reply is recorded as an error). */
export function requestOutcome(reply: ReplyRecord): PartnerRequestOutcome {
  return reply.offers.length === 0 && (reply.offersDropped ?? 0) > 0 ? 'dropped' : reply.status
}

/** `askPartner` as a client span of the lead's trace: the partner, its tier, outcome, latency and offers. */
export function tracedAsk(
  ctx: AskContext,
  run: { leadId: string },
  ask: {
    request: SentRequest
    partner: PartnerRegistryEntry
    leadJson: Buffer
    pii: { pii: readonly string[]; findPii: PiiFinder }
  },
  windowMs: number,
  expire: AbortSignal,
): Promise<ReplyRecord> {
  const { request, partner } = ask
  const attributes = {
    'partner.id': partner.id,
    'partner.tier': partner.tier,
    'second_look.request_id': request.id,
    'second_look.window_ms': windowMs,
  }
  return inSpan(
    'second-look partner call',
    attributes,
    async (span) => {
      const answered = await askPartner(ctx, run, request, partner, ask.leadJson, ask.pii, windowMs, expire)
      span.setAttributes({
        'partner.outcome': requestOutcome(answered),
        'partner.latency_ms': answered.latencyMs,
        'partner.offers': answered.offers.length,
        'partner.offers_dropped': answered.offersDropped ?? 0,
        ...(answered.httpStatus === undefined ? {} : { 'http.response.status_code': answered.httpStatus }),
      })
      if (answered.status === 'error' || answered.status === 'timeout') failSpan(span, answered.status)
      return answered
    },
    SpanKind.CLIENT,
  )
}

async function askPartner(
  ctx: AskContext,
  run: { leadId: string },
  request: SentRequest,
  partner: PartnerRegistryEntry,
  leadJson: Buffer,
  { pii, findPii }: { pii: readonly string[]; findPii: PiiFinder },
  windowMs: number,
  expire: AbortSignal,
): Promise<ReplyRecord> {
  const outcome = await callPartner(partner, leadJson, {
    dispatcher: ctx.dispatcher,
    timeoutMs: windowMs,
    expire,
    maxBodyBytes: ctx.maxReplyBytes,
    shutdown: ctx.shutdown,
    timers: ctx.timers,
    idempotencyKey: request.id,
  })
  // Offers that break the contract on their own (any field carrying the lead's PII, a link to a private
  // host outside sandbox mode, a bid past the ceiling) are dropped before anything of them is stored or
  // logged; the reply keeps the others, or is an error.
  // Terms that break the contract are dropped alone, the offer kept (docs/decisions/0108-loan-terms.md).
  const checked = await offerProblems(outcome.offers, { findPii, publicLinksOnly: !partner.sandbox })
  const { kept, dropped } = checked
  const said = droppedReason(outcome.offers.length, checked)
  const status = said?.everyOffer ? 'error' : outcome.status
  const reason = redactReason(said?.reason ?? outcome.reason, pii)
  const offers: OfferRecord[] = kept.map(({ offer, position, loanTerms }) => ({
    id: randomUUID(),
    position,
    rate: offer.rate,
    productType: offer.product_type ?? partner.display.productType,
    recommendationScore: ctx.scorer(offer, partner),
    clickUrl: offer.click_url,
    name: offer.name,
    displayName: offer.display_name,
    offerDetails: offer.offer_details,
    logoSrc: offer.logo_src,
    loanTerms,
  }))
  ctx.logger.info(
    {
      leadId: run.leadId,
      partnerId: partner.id,
      tier: partner.tier,
      status,
      httpStatus: outcome.httpStatus,
      latencyMs: Math.round(outcome.latencyMs * 10) / 10,
      offers: offers.length,
      reason,
    },
    'partner reply',
  )
  return {
    requestId: request.id,
    leadId: run.leadId,
    partnerId: partner.id,
    status,
    reason,
    httpStatus: outcome.httpStatus,
    partnerLeadId: redactLeadId(outcome.partnerLeadId, pii),
    partnerLeadIdHash:
      outcome.partnerLeadId === undefined ? undefined : ctx.hashPartnerLeadId(outcome.partnerLeadId),
    // From the request's recorded `sentAt`: after a takeover that is the first send, not the re-send, so the
    // partner's latency and the window it is judged by count from the same moment.
    latencyMs: Math.max(outcome.latencyMs, ctx.timers.now() - request.sentAt.getTime()),
    repliedAt: new Date(ctx.timers.now()),
    offers,
    offersDropped: dropped.length,
  }
}

/** Why a request taken over has no reply: the replica died, or lost the ledger past every write retry. */
export const STOPPED =
  'no reply recorded: the run of the lead stopped (its replica died or could not write to the ledger)'

/**
 * A request closed without a partner's answer (never asked, or asked by a replica that died): recorded
 * with its reason, no offers. `latencyMs` is the time since it was sent, 0 when it was never sent.
 */
export function unanswered(
  leadId: string,
  request: SentRequest,
  { status, reason, now, sent }: { status: 'timeout' | 'error'; reason: string; now: number; sent: boolean },
): ReplyRecord {
  return {
    requestId: request.id,
    leadId,
    partnerId: request.partnerId,
    status,
    reason,
    latencyMs: sent ? Math.max(0, now - request.sentAt.getTime()) : 0,
    repliedAt: new Date(now),
    offers: [],
  }
}
