/**
 * @module What a replica does with a lead it took over, worked out from what the ledger recorded: ask again
 * the partners of the current tier that never answered (their windows still count from when they were
 * first asked), with the tier's recorded offers joining the auction; or, when the lead cannot be asked
 * again (its deadline has passed, or its sealed copy is gone or unreadable), settle it at once on what
 * was recorded, each unanswered request closed with the reason.
 */
import type { Lead } from '../../contract/partner.ts'
import type { ClaimedLead, ReplyRecord, SentRequest, Tier } from '../../ledger/index.ts'
import type { Bid } from '../auction/auction.ts'
import { STOPPED, unanswered } from '../fan-out/ask-partner.ts'
import type { LeadRun } from '../fan-out/run-lead.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'

export type TakeoverPlan =
  | { kind: 'run'; run: LeadRun }
  | { kind: 'settle'; replies: ReplyRecord[]; bids: Bid[]; reason: string }

export interface TakeoverInput {
  registry: ReadonlyMap<string, PartnerRegistryEntry>
  /** Opens the sealed lead; undefined when it cannot. */
  open(sealed: string): Lead | undefined
  now: number
}

export function planTakeover(claimed: ClaimedLead, input: TakeoverInput): TakeoverPlan {
  const tier: Tier = claimed.requests.some((r) => r.tier === 'second') ? 'second' : 'first'
  const waiting: SentRequest[] = claimed.requests
    .filter((r) => r.tier === tier && r.status === 'pending')
    .map(({ status: _, ...r }) => r)
  const bids: Bid[] = claimed.offers
    .filter((o) => o.tier === tier)
    .map((o) => ({
      offerId: o.id,
      partnerId: o.partnerId,
      position: o.position,
      rate: o.rate,
      productType: o.productType,
      recommendationScore: o.recommendationScore,
    }))
  const lead = claimed.sealed === undefined ? undefined : input.open(claimed.sealed)
  const pastDeadline = input.now >= claimed.lead.deadlineAt.getTime()
  if (lead === undefined || pastDeadline) {
    const reason = pastDeadline
      ? `${STOPPED}, and its deadline has passed`
      : `${STOPPED}, and the lead cannot be sent again (its sealed copy is missing, or sealed under another SESSION_SECRET)`
    const replies = waiting.map((r) =>
      unanswered(claimed.lead.id, r, { status: 'error', reason, now: input.now, sent: true }),
    )
    return { kind: 'settle', replies, bids, reason }
  }
  const asked = new Set(claimed.requests.map((r) => r.partnerId))
  const nextTier =
    tier === 'first'
      ? [...input.registry.values()].filter((p) => p.enabled && p.tier === 'second' && !asked.has(p.id))
      : []
  return {
    kind: 'run',
    run: {
      lead,
      leadId: claimed.lead.id,
      requests: waiting,
      nextTier,
      tier,
      resumed: { recordedBids: bids },
    },
  }
}
