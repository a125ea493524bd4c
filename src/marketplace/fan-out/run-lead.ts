/**
 * @module Runs one lead end to end after intake: first-look partners concurrently, then second-look
 * partners when first look produced no offer (seed 001: "When first-look partners return no offers, the
 * details go to second-look partners"), every reply written as it lands, then the auction. The last
 * reply of a tier is written together with what follows it, so a poll never sees an empty
 * `pendingResponses` before the result is final.
 */
import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { Logger } from 'pino'
import type { Dispatcher } from 'undici'
import type { Lead } from '../../contract/partner.ts'
import type { Ledger, OfferRecord, ReplyRecord, SentRequest } from '../../ledger/index.ts'
import { type Bid, runAuction, type WinnerPolicy } from '../auction/auction.ts'
import type { Scorer } from '../auction/score.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'
import { callPartner } from './call-partner.ts'
import { identifyingValues, redactLeadId, redactReason } from './redact.ts'

export interface RunLeadContext {
  ledger: Ledger
  registry: ReadonlyMap<string, PartnerRegistryEntry>
  policy: WinnerPolicy
  scorer: Scorer
  dispatcher: Dispatcher
  now: () => number
  logger: Logger
  maxReplyBytes: number
  shutdown: AbortSignal
}

export interface LeadRun {
  lead: Lead
  leadId: string
  /** Epoch ms after which no partner is waited for. */
  deadlineAt: number
  /** The requests already written by intake (the first tier that has partners). */
  requests: SentRequest[]
  /** Second-look partners, when intake sent the first tier. */
  nextTier: PartnerRegistryEntry[]
}

export async function runLead(ctx: RunLeadContext, run: LeadRun): Promise<void> {
  // Serialised once for every partner of both tiers.
  const leadJson = Buffer.from(JSON.stringify(run.lead))
  const pii = identifyingValues(run.lead)
  let requests = run.requests
  let nextTier = run.nextTier
  for (;;) {
    const { held, bids } = await runTier(ctx, run, requests, leadJson, pii)
    const remaining = run.deadlineAt - ctx.now()
    if (bids.length === 0 && nextTier.length > 0 && remaining > 0) {
      const sentAt = new Date(ctx.now())
      requests = nextTier.map((p) => ({ id: randomUUID(), partnerId: p.id, tier: p.tier, sentAt }))
      nextTier = []
      await ctx.ledger.closeTier(held, { kind: 'next-tier', requests }, run.leadId)
      continue
    }
    const winners = runAuction(bids, ctx.policy)
    await ctx.ledger.closeTier(
      held,
      {
        kind: 'settle',
        winners: winners.map((w) => ({ offerId: w.bid.offerId, rank: w.rank })),
        completedAt: new Date(ctx.now()),
      },
      run.leadId,
    )
    ctx.logger.info(
      { leadId: run.leadId, bids: bids.length, winners: winners.length },
      'second-look auction settled',
    )
    return
  }
}

/** Calls every partner of one tier; writes each reply but the last, which the caller writes with the next step. */
async function runTier(
  ctx: RunLeadContext,
  run: LeadRun,
  requests: SentRequest[],
  leadJson: Buffer,
  pii: readonly string[],
): Promise<{ held: ReplyRecord[]; bids: Bid[] }> {
  const bids: Bid[] = []
  const held: ReplyRecord[] = []
  let outstanding = requests.length
  // One timer for every partner whose window is what is left of the lead: they all time out in the same
  // callback, so their replies share one ledger write instead of one per timer a millisecond apart.
  const leadWindow = { end: new AbortController(), ms: Math.max(0, run.deadlineAt - ctx.now()) }
  setMaxListeners(0, leadWindow.end.signal)
  const timer = setTimeout(() => leadWindow.end.abort(), leadWindow.ms)
  try {
    await Promise.all(
      requests.map(async (request) => {
        const partner = ctx.registry.get(request.partnerId)
        const reply = partner
          ? await askPartner(ctx, run, request, partner, leadJson, pii, leadWindow)
          : missingPartner(run, request, ctx.now())
        if (partner) {
          for (const offer of reply.offers) {
            bids.push({
              offerId: offer.id,
              partnerId: partner.id,
              position: offer.position,
              rate: offer.rate,
              productType: offer.productType,
              recommendationScore: offer.recommendationScore,
            })
          }
        }
        outstanding--
        if (outstanding === 0) {
          held.push(reply)
          return
        }
        // Not awaited: the ledger writes in the order it is asked, so the step that follows the tier
        // (marking offers displayed among them) lands with or after every earlier reply, and shares
        // their write when it can.
        ctx.ledger.recordReply(reply).catch((error: unknown) => {
          ctx.logger.error(
            { leadId: run.leadId, partnerId: request.partnerId, err: error },
            'ledger write failed',
          )
        })
      }),
    )
  } finally {
    clearTimeout(timer)
  }
  return { held, bids }
}

async function askPartner(
  ctx: RunLeadContext,
  run: LeadRun,
  request: SentRequest,
  partner: PartnerRegistryEntry,
  leadJson: Buffer,
  pii: readonly string[],
  leadWindow: { end: AbortController; ms: number },
): Promise<ReplyRecord> {
  // A partner registered with a shorter window than what is left of the lead keeps a timer of its own.
  const own = partner.timeoutMs < leadWindow.ms
  const outcome = await callPartner(partner, leadJson, {
    dispatcher: ctx.dispatcher,
    timeoutMs: own ? partner.timeoutMs : leadWindow.ms,
    expire: own ? undefined : leadWindow.end.signal,
    maxBodyBytes: ctx.maxReplyBytes,
    shutdown: ctx.shutdown,
  })
  const reason = redactReason(outcome.reason, pii)
  const offers: OfferRecord[] = outcome.offers.map((offer, position) => ({
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
  }))
  ctx.logger.info(
    {
      leadId: run.leadId,
      partnerId: partner.id,
      tier: partner.tier,
      status: outcome.status,
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
    status: outcome.status,
    reason,
    httpStatus: outcome.httpStatus,
    partnerLeadId: redactLeadId(outcome.partnerLeadId, pii),
    latencyMs: outcome.latencyMs,
    repliedAt: new Date(ctx.now()),
    offers,
  }
}

/** A partner removed from the registry between intake and fan-out: recorded, never called. */
function missingPartner(run: LeadRun, request: SentRequest, now: number): ReplyRecord {
  return {
    requestId: request.id,
    leadId: run.leadId,
    partnerId: request.partnerId,
    status: 'error',
    reason: 'partner is no longer in the registry',
    latencyMs: 0,
    repliedAt: new Date(now),
    offers: [],
  }
}
