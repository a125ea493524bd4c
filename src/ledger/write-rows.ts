/**
 * @module The rows one flush of the write batch writes, table by table, as JSON records for
 * `jsonb_to_recordset`, with the column lists (from the drizzle schema) its statement inserts and updates.
 */
import { allColumns, columnList, type JsonValue } from './recordset.ts'
import {
  applicantClaims,
  consentRecords,
  consentTexts,
  leadHandoffs,
  leads,
  offers,
  partnerRequests,
} from './schema.ts'
import type {
  ConsentTextRecord,
  NewLead,
  OfferRecord,
  OfferSettlement,
  ReplyRecord,
  SentRequest,
} from './types.ts'
import type { LeadOp, Op } from './write-ops.ts'

export type LeadOpAt = { op: LeadOp; index: number; completedAt: Date | null }
export type Row = Record<string, JsonValue>

/** Every row the batch's statement writes, each statement's rows apart. */
export function batchRows(batch: Op[]) {
  const leadOps = batch.flatMap((op, index) => (op.kind === 'lead' ? [{ op, index }] : []))
  const newLeadIds = new Set(leadOps.map(({ op }) => op.lead.id))

  const replies = batch.flatMap((op) =>
    op.kind === 'reply' ? [op.reply] : op.kind === 'close' ? op.replies : [],
  )
  const winnerRank = new Map<string, number>()
  const outcomeOf = new Map<string, OfferSettlement>()
  const settledAt = new Map<string, Date>()
  for (const op of batch) {
    if (op.kind === 'close' && op.next.kind === 'settle') {
      for (const w of op.next.winners) winnerRank.set(w.offerId, w.rank)
      for (const o of op.next.outcomes) outcomeOf.set(o.offerId, o)
      settledAt.set(op.leadId, op.next.completedAt)
    }
  }

  // Requests created by this batch, each with its reply when that is in the batch too.
  const replyOf = new Map(replies.map((r) => [r.requestId, r]))
  const newRequestIds = new Set<string>()
  const requestRowOf = (leadId: string, r: SentRequest) => {
    newRequestIds.add(r.id)
    return requestRow(leadId, r, replyOf.get(r.id))
  }
  const leadRequests = leadOps.flatMap(({ op }) => op.requests.map((r) => requestRowOf(op.lead.id, r)))
  const nextTierRequests = batch.flatMap((op) =>
    op.kind === 'close' && op.next.kind === 'next-tier'
      ? op.next.requests.map((r) => requestRowOf(op.leadId, r))
      : [],
  )
  const leadOpsAt: LeadOpAt[] = leadOps.map(({ op, index }) => ({
    op,
    index,
    completedAt: op.requests.length === 0 ? op.lead.createdAt : (settledAt.get(op.lead.id) ?? null),
  }))

  const newOfferIds = new Set<string>()
  const offerRows = replies.flatMap((reply) =>
    reply.offers.map((offer) => {
      newOfferIds.add(offer.id)
      return offerRow(reply, offer, winnerRank.get(offer.id), outcomeOf.get(offer.id))
    }),
  )
  return {
    leadOps: leadOpsAt,
    leads: leadOpsAt.map(({ op, completedAt }) => leadRow(op.lead, completedAt)),
    // A lead settled in its own batch has nothing left to hand over.
    handoffs: leadOpsAt.flatMap(({ op, completedAt }) =>
      op.lead.sealed === undefined || completedAt
        ? []
        : [HANDOFF.row({ leadId: op.lead.id, sealed: op.lead.sealed })],
    ),
    leadRequests,
    claims: claimRows(leadOpsAt),
    consentTexts: consentTextRows(leadOpsAt),
    consentRecords: leadOpsAt.flatMap(({ op }) => (op.lead.consent ? [consentRecordRow(op.lead)] : [])),
    nextTierRequests,
    offers: offerRows,
    replyUpdates: replies.filter((r) => !newRequestIds.has(r.requestId)).map(replyRow),
    // Offers settled that arrived in earlier batches; those of this batch were inserted settled.
    earlierOffers: [...new Set([...winnerRank.keys(), ...outcomeOf.keys()])]
      .filter((id) => !newOfferIds.has(id))
      .map((id) =>
        SETTLED_OFFER.row({ id, rank: winnerRank.get(id) ?? null, ...outcomeFields(outcomeOf.get(id)) }),
      ),
    settledUpdates: [...settledAt]
      .filter(([id]) => !newLeadIds.has(id))
      .map(([id, at]) => SETTLE.row({ id, completedAt: at.toISOString() })),
  }
}

// Column lists of the statements, from the schema: whole rows for the inserts, the touched columns for updates.
export const LEAD = allColumns(leads)
export const REQUEST = allColumns(partnerRequests)
export const OFFER = allColumns(offers)
export const HANDOFF = allColumns(leadHandoffs)
export const REPLY = columnList(partnerRequests, [
  'id',
  'status',
  'reason',
  'httpStatus',
  'partnerLeadId',
  'partnerLeadIdHash',
  'latencyMs',
  'offerCount',
  'offersDropped',
  'repliedAt',
])
export const CLAIM = allColumns(applicantClaims)
export const CONSENT_TEXT = allColumns(consentTexts)
export const CONSENT_RECORD = allColumns(consentRecords)
export const SETTLED_OFFER = columnList(offers, ['id', 'rank', 'outcome', 'bidRank', 'gapCents'])
export const SETTLE = columnList(leads, ['id', 'completedAt'])

function leadRow(lead: NewLead, completedAt: Date | null): Row {
  return LEAD.row({
    id: lead.id,
    searchUuid: lead.searchUuid,
    state: lead.state,
    zip: lead.zip,
    idempotencyKey: lead.idempotencyKey ?? null,
    bodyHash: lead.bodyHash ?? null,
    status: completedAt ? 'complete' : 'pending',
    createdAt: lead.createdAt.toISOString(),
    deadlineAt: lead.deadlineAt.toISOString(),
    completedAt: completedAt?.toISOString() ?? null,
    failureReason: null,
    owner: completedAt ? null : (lead.owner ?? null),
    leaseUntil: completedAt ? null : (lead.leaseUntil?.toISOString() ?? null),
    applicantKey: lead.applicant?.key ?? null,
    placement: lead.placement ?? null,
    creditBand: lead.creditBand ?? null,
    loanPurpose: lead.loanPurpose ?? null,
    amountBand: lead.amountBand ?? null,
  })
}

/**
 * One claim per applicant key in the batch: the first lead of an applicant claims it; a later one in the
 * same batch is a duplicate of it (and one statement may not touch a claim row twice). Each row carries the
 * lead's idempotency key beside the claim's columns: a lead whose key is already held claims nothing.
 */
function claimRows(leadOps: LeadOpAt[]): Row[] {
  const claimed = new Set<string>()
  // Claims of one SSN earlier in this batch: the statement's count of live claims cannot see them.
  const ssnRank = new Map<string, number>()
  return leadOps.flatMap(({ op: { lead } }) => {
    const applicant = lead.applicant
    if (applicant === undefined || claimed.has(applicant.key)) return []
    claimed.add(applicant.key)
    const row = CLAIM.row({
      applicantKey: applicant.key,
      leadId: lead.id,
      claimedAt: lead.createdAt.toISOString(),
      expiresAt: applicant.expiresAt.toISOString(),
      contactKey: applicant.contactKey,
      ssnKey: applicant.ssn?.key ?? null,
    })
    const rank = applicant.ssn ? (ssnRank.get(applicant.ssn.key) ?? 0) : 0
    if (applicant.ssn) ssnRank.set(applicant.ssn.key, rank + 1)
    return [
      {
        ...row,
        idempotency_key: lead.idempotencyKey ?? null,
        ssn_cap: applicant.ssn?.cap ?? null,
        ssn_rank: rank,
      },
    ]
  })
}

/** The texts of the batch's consent records, each once: inserted unless already stored. */
function consentTextRows(leadOps: LeadOpAt[]): Row[] {
  const texts = new Map<string, { text: ConsentTextRecord; at: Date }>()
  for (const { op } of leadOps) {
    const { consent, createdAt } = op.lead
    for (const text of consent ? [consent.fcra, consent.tcpa] : []) {
      if (text && !texts.has(text.id)) texts.set(text.id, { text, at: createdAt })
    }
  }
  return [...texts.values()].map(({ text, at }) =>
    CONSENT_TEXT.row({ ...text, firstStoredAt: at.toISOString() }),
  )
}

function consentRecordRow(lead: NewLead): Row {
  const consent = lead.consent as NonNullable<NewLead['consent']>
  return CONSENT_RECORD.row({
    leadId: lead.id,
    recordedAt: lead.createdAt.toISOString(),
    fcraTextId: consent.fcra.id,
    fcraChecked: true,
    tcpaTextId: consent.tcpa?.id ?? null,
    tcpaChecked: consent.tcpaChecked ?? null,
    pageUrl: consent.pageUrl ?? null,
    ipAddress: consent.ipAddress,
    userAgent: consent.userAgent,
    widgetVersion: consent.widgetVersion ?? null,
    trustedFormCertUrl: consent.trustedFormCertUrl ?? null,
    leadiDToken: consent.leadiDToken ?? null,
  })
}

/** The answer columns of a request: its reply's, or `pending` and empty while it has none. */
function replyFields(r: ReplyRecord | undefined) {
  return {
    status: r?.status ?? 'pending',
    reason: r?.reason ?? null,
    httpStatus: r?.httpStatus ?? null,
    partnerLeadId: r?.partnerLeadId ?? null,
    partnerLeadIdHash: r?.partnerLeadIdHash ?? null,
    latencyMs: r ? Math.round(r.latencyMs) : null,
    offerCount: r?.offers.length ?? 0,
    offersDropped: r?.offersDropped ?? 0,
    repliedAt: r?.repliedAt.toISOString() ?? null,
  }
}

function replyRow(r: ReplyRecord): Row {
  return REPLY.row({ id: r.requestId, ...replyFields(r) })
}

function requestRow(leadId: string, request: SentRequest, reply: ReplyRecord | undefined): Row {
  return REQUEST.row({
    id: request.id,
    leadId,
    partnerId: request.partnerId,
    tier: request.tier,
    sentAt: request.sentAt.toISOString(),
    ...replyFields(reply),
  })
}

function outcomeFields(o: OfferSettlement | undefined) {
  return { outcome: o?.outcome ?? null, bidRank: o?.bidRank ?? null, gapCents: o?.gapCents ?? null }
}

function offerRow(
  reply: ReplyRecord,
  offer: OfferRecord,
  rank: number | undefined,
  settled: OfferSettlement | undefined,
): Row {
  return OFFER.row({
    id: offer.id,
    leadId: reply.leadId,
    requestId: reply.requestId,
    partnerId: reply.partnerId,
    position: offer.position,
    rate: offer.rate,
    productType: offer.productType,
    recommendationScore: offer.recommendationScore,
    clickUrl: offer.clickUrl,
    name: offer.name ?? null,
    displayName: offer.displayName ?? null,
    offerDetails: offer.offerDetails ?? null,
    logoSrc: offer.logoSrc ?? null,
    loanTerms: offer.loanTerms ?? null,
    displayed: rank !== undefined,
    rank: rank ?? null,
    ...outcomeFields(settled),
    createdAt: reply.repliedAt.toISOString(),
  })
}
