/**
 * @module Runs one lead end to end after intake: first-look partners concurrently, then second-look
 * partners when first look produced no offer (docs/partner-interface.md: "When first-look partners return no offers, the
 * details go to second-look partners"), every reply written as it lands, then the auction.
 *
 * Each tier has its own window. First look closes as soon as every first-look partner has answered, or at
 * the first-look deadline; each second-look partner then gets its whole window from the moment it is sent
 * the lead. Write-ahead: a tier's requests are in the ledger before any of its partners is called, and the
 * last reply of a tier is written together with what follows it, so a poll never sees an empty
 * `pendingResponses` before the result is final. A write the ledger cannot take is retried (bounded);
 * what still cannot be written is left `pending` for the sweep to close as `failed` with its reason.
 */
import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { Lead } from '../../contract/partner.ts'
import { sleepOn, type TimerHandle, type Timers } from '../../http/timers.ts'
import { openSpan } from '../../http/trace.ts'
import type { Ledger, ReplyRecord, SentRequest, Tier } from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import { type Bid, runAuction, type Winner, type WinnerPolicy } from '../auction/auction.ts'
import { settlement } from '../auction/outcomes.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'
import type { SecondLookMetrics } from '../second-look-metrics.ts'
import { type AskContext, requestOutcome, STOPPED, tracedAsk, unanswered } from './ask-partner.ts'
import { createPiiFinder, type PiiFinder } from './pii-finder.ts'
import { identifyingValues } from './redact.ts'

export interface RunLeadContext extends AskContext {
  ledger: Ledger
  registry: ReadonlyMap<string, PartnerRegistryEntry>
  policy: WinnerPolicy
  metrics: SecondLookMetrics
  /** Cap on each partner's window (docs/partner-interface.md's 12 s); a partner's own `timeoutMs` may be shorter. */
  windowMs: number
  /** First look closes at this, counted from its requests' `sentAt`, when partners are still out. */
  firstLookDeadlineMs: number
  /** How long a write the ledger refused is retried, counted from its first attempt. */
  writeRetryMs: number
}

export interface LeadRun {
  lead: Lead
  leadId: string
  /**
   * The requests to ask now, already in the ledger: a new lead's first tier (written by intake), or the
   * requests of a lead taken over that were never answered.
   */
  requests: SentRequest[]
  /** Second-look partners, when the first tier runs now. */
  nextTier: PartnerRegistryEntry[]
  /** The tier `requests` belong to; needed when a lead taken over has none left to ask. */
  tier?: Tier
  /**
   * A lead taken over from a replica that died: each partner's window counts from when it was first sent
   * the lead (its recorded `sentAt`), not from now, and the tier's recorded offers join the auction.
   */
  resumed?: { recordedBids: Bid[] }
  /** Aborted when this replica lost the lead's lease to another: the run stops and writes nothing more. */
  lost?: AbortSignal
}

/** The lead's body as partners are sent it: `placed` (with `placement`) only for partners that opted in. */
interface LeadJson {
  plain: Buffer
  placed: Buffer | undefined
}

/** First retry after this; doubled each time up to `MAX_RETRY_PAUSE_MS`. */
const FIRST_RETRY_PAUSE_MS = 200
const MAX_RETRY_PAUSE_MS = 2_000

/** A partner's window for one lead: its own, within the seed's ceiling. */
export function partnerWindowMs(partner: PartnerRegistryEntry, capMs: number): number {
  return Math.min(partner.timeoutMs, capMs)
}

/**
 * Shutdown or a lost lease, as one signal: every partner call of the lead listens to it, so it takes more
 * than Node's default 10 listeners without a `MaxListenersExceededWarning` (issue 44).
 */
function stopSignal(shutdown: AbortSignal, lost: AbortSignal): AbortSignal {
  const signal = AbortSignal.any([shutdown, lost])
  setMaxListeners(0, signal)
  return signal
}

export async function runLead(baseCtx: RunLeadContext, run: LeadRun): Promise<void> {
  const lost = run.lost
  // A lost lease stops partner calls and write retries like a shutdown does, but the run then writes nothing.
  const ctx = lost ? { ...baseCtx, shutdown: stopSignal(baseCtx.shutdown, lost) } : baseCtx
  // Serialised once for every partner of both tiers: without the placement (docs/placements.md), and with it
  // for the partners whose registry entry opted in (`sendPlacement`).
  const { placement, ...unplaced } = run.lead
  const leadJson = {
    plain: Buffer.from(JSON.stringify(unplaced)),
    placed: placement === undefined ? undefined : Buffer.from(JSON.stringify(run.lead)),
  }
  const pii = identifyingValues(run.lead)
  // Its needles are compiled on the first approved reply only: most partners of most leads offer nothing.
  const findPii = createPiiFinder(run.lead)
  let requests = run.requests
  let nextTier = run.nextTier
  let recorded = run.resumed?.recordedBids ?? []
  let resumed = run.resumed !== undefined
  for (;;) {
    const tier: Tier = requests[0]?.tier ?? run.tier ?? 'second'
    const tierRun = await runTier(ctx, run, { requests, resumed }, leadJson, pii, findPii)
    const { held } = tierRun
    const bids = [...recorded, ...tierRun.bids]
    recorded = []
    resumed = false
    if (lost?.aborted) return
    if (bids.length === 0 && nextTier.length > 0 && !ctx.shutdown.aborted) {
      const sentAt = new Date(ctx.timers.now())
      requests = nextTier.map((p) => ({ id: randomUUID(), partnerId: p.id, tier: p.tier, sentAt }))
      nextTier = []
      // Write-ahead: second-look partners are called only once their requests are recorded.
      const written = await persistWrite(ctx, run.leadId, `close ${tier} look`, () =>
        ctx.ledger.closeTier(held, { kind: 'next-tier', requests }, run.leadId),
      )
      if (!written) {
        ctx.metrics.lead('unsettled')
        return
      }
      continue
    }
    const winners = auction(bids, ctx.policy)
    const written = await persistWrite(ctx, run.leadId, 'settle', () =>
      ctx.ledger.closeTier(
        held,
        { kind: 'settle', ...settlement(bids, winners), completedAt: new Date(ctx.timers.now()) },
        run.leadId,
      ),
    )
    if (!written) ctx.metrics.lead('unsettled')
    if (written) {
      recordSettled(ctx.metrics, winners)
      ctx.logger.info(
        { leadId: run.leadId, bids: bids.length, winners: winners.length },
        'second-look auction settled',
      )
    }
    return
  }
}

/**
 * Calls every partner of one tier and writes each reply as it lands, but the last, which the caller writes
 * with the next step. Replies whose own write failed past its retries travel with that last one.
 */
// long-function: one tier's replies, written as they land in arrival order with the last held for the next step: the order is the logic, and it reads top to bottom
async function runTier(
  ctx: RunLeadContext,
  run: LeadRun,
  { requests, resumed }: { requests: SentRequest[]; resumed: boolean },
  leadJson: LeadJson,
  pii: readonly string[],
  findPii: PiiFinder,
): Promise<{ held: ReplyRecord[]; bids: Bid[] }> {
  const bids: Bid[] = []
  const held: ReplyRecord[] = []
  const writes: Array<Promise<void>> = []
  let outstanding = requests.length
  const windows = createWindows(ctx.timers)
  // Windows start now, when the partners are asked, not when the lead was written; for a lead taken over
  // they started when its partners were first sent it. Read once for the tier, so partners with the same
  // window share its timer.
  const now = ctx.timers.now()
  const startOf = (request: SentRequest) => (resumed ? request.sentAt.getTime() : now)
  const tierLeft =
    requests[0]?.tier === 'first'
      ? Math.min(...requests.map(startOf)) + ctx.firstLookDeadlineMs - now
      : Number.POSITIVE_INFINITY
  try {
    await Promise.all(
      requests.map(async (request) => {
        const partner = ctx.registry.get(request.partnerId)
        let reply: ReplyRecord
        if (partner) {
          // A first-look partner's window never runs past the first-look deadline.
          const windowLeft = startOf(request) + partnerWindowMs(partner, ctx.windowMs) - now
          const ms = Math.max(0, Math.min(windowLeft, tierLeft))
          reply =
            ms === 0
              ? // A lead taken over after this partner's window had closed: not asked again.
                unanswered(run.leadId, request, {
                  status: 'timeout',
                  reason: `${STOPPED}, and its window had closed when the lead was taken over`,
                  now,
                  sent: true,
                })
              : await tracedAsk(
                  ctx,
                  run,
                  {
                    request,
                    partner,
                    leadJson: (partner.sendPlacement && leadJson.placed) || leadJson.plain,
                    pii: { pii, findPii },
                  },
                  ms,
                  windows.expiry(ms),
                )
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
        } else {
          // Removed from the registry between intake and fan-out: recorded, never called.
          reply = unanswered(run.leadId, request, {
            status: 'error',
            reason: 'partner is no longer in the registry',
            now: ctx.timers.now(),
            sent: false,
          })
        }
        ctx.metrics.partnerRequest(
          { id: request.partnerId, tier: request.tier },
          requestOutcome(reply),
          reply.latencyMs,
        )
        outstanding--
        if (outstanding === 0) {
          held.push(reply)
          return
        }
        writes.push(
          persistWrite(ctx, run.leadId, `reply of ${request.partnerId}`, () =>
            ctx.ledger.recordReply(reply),
          ).then((written) => {
            if (!written) held.push(reply)
          }),
        )
      }),
    )
  } finally {
    windows.clear()
  }
  // The step after the tier (marking offers displayed among them) must land after every earlier reply:
  // wait for their writes; in the usual case they are in the same or the previous flush.
  await Promise.all(writes)
  return { held, bids }
}

/**
 * The auction (docs/partner-interface.md's winner policy) as a span of the lead's trace: how many bids,
 * which offers won, of which product types.
 */
export function auction(bids: readonly Bid[], policy: WinnerPolicy): Winner[] {
  const { span, within } = openSpan('second-look auction', {
    'second_look.bids': bids.length,
    'second_look.winner_policy': policy,
  })
  try {
    const winners = within(() => runAuction([...bids], policy))
    span.setAttributes({
      'second_look.winners': winners.length,
      'second_look.winner_offer_ids': winners.map((w) => w.bid.offerId),
      'second_look.winner_partner_ids': winners.map((w) => w.bid.partnerId),
      'second_look.winner_product_types': winners.map((w) => w.bid.productType),
    })
    return winners
  } finally {
    span.end()
  }
}

/** A lead settled: its outcome, and each offer shown by its product type. */
export function recordSettled(metrics: SecondLookMetrics, winners: readonly Winner[]): void {
  metrics.lead(winners.length > 0 ? 'with_offers' : 'no_offers')
  for (const winner of winners) metrics.winner(winner.bid.productType)
}

/**
 * One timer per distinct window, shared by every partner with that window: partners still out when it
 * ends time out in one callback, so their replies share one ledger write instead of one per timer.
 */
function createWindows(timers: Timers) {
  const byMs = new Map<number, { end: AbortController; timer: TimerHandle }>()
  return {
    expiry(ms: number): AbortSignal {
      let window = byMs.get(ms)
      if (window === undefined) {
        const end = new AbortController()
        setMaxListeners(0, end.signal)
        window = { end, timer: timers.setTimeout(() => end.abort(), ms) }
        byMs.set(ms, window)
      }
      return window.end.signal
    },
    clear() {
      for (const { timer } of byMs.values()) timers.clearTimeout(timer)
    },
  }
}

/**
 * Runs a ledger write, retrying what the ledger could not take (unreachable, timed out) with growing pauses
 * for `writeRetryMs`, and not past a shutdown's drain. False when it was never written; logged without the
 * write's content.
 */
export async function persistWrite(
  ctx: Pick<RunLeadContext, 'timers' | 'logger' | 'shutdown' | 'writeRetryMs'>,
  leadId: string,
  what: string,
  write: () => Promise<void>,
): Promise<boolean> {
  const started = ctx.timers.now()
  let pause = FIRST_RETRY_PAUSE_MS
  for (let attempt = 1; ; attempt++) {
    try {
      await write()
      if (attempt > 1) ctx.logger.info({ leadId, attempt }, `ledger write of ${what} succeeded on retry`)
      return true
    } catch (error) {
      const code = error instanceof LedgerError ? error.code : 'unknown'
      const transient = error instanceof LedgerError && error.transient
      const left = started + ctx.writeRetryMs - ctx.timers.now()
      if (!transient || left <= 0 || ctx.shutdown.aborted) {
        ctx.logger.error(
          { leadId, attempt, code },
          `ledger write of ${what} failed; the lead is left for the unsettled sweep`,
        )
        return false
      }
      ctx.logger.warn({ leadId, attempt, code }, `ledger write of ${what} failed; retrying`)
      await sleepOn(ctx.timers, Math.min(pause, left), ctx.shutdown)
      pause = Math.min(pause * 2, MAX_RETRY_PAUSE_MS)
    }
  }
}
