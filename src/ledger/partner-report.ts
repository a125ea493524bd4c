/**
 * @module The figures docs/partner-interface.md says partners are supplied: requests, responses with at least one offer,
 * offers returned, offers displayed (unique impressions), unique clicks, average bid per product type, and
 * the lead-level win/loss report; with them what a partner needs to act on them: its replies' reasons,
 * its error and timeout causes with latency, win rate, click-through rate and conversions. Every figure
 * counts the leads *sent* in `[from, to)`, whenever they were displayed, clicked or converted.
 */
import { and, desc, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import { partnerBreakdowns } from './partner-breakdowns.ts'
import { centsToAmount, spendByDay } from './partner-spend.ts'
import type { ContractPays, PartnerReport, ReplyCause, ReplyStats } from './report-types.ts'
import { clicks, conversions, impressions, offers, partnerRequests } from './schema.ts'
import type { OfferOutcome, RequestStatus } from './types.ts'

export interface PartnerReportQuery {
  partnerId: string
  from: Date
  to: Date
  /** Most leads listed in the win/loss report (the newest); totals are never cut. */
  leadLimit?: number
  /** What the partner's contract bills, the basis of `spend`; per click when absent. */
  pays?: ContractPays | undefined
  /**
   * The publisher's placements are shared with this partner (its registry entry's `sendPlacement`,
   * docs/placements.md): the placement breakdown names them; otherwise it is one row, `not_shared`.
   */
  sharePlacement?: boolean | undefined
}

/** Most causes listed; the rest are rarer than every one shown. */
const MAX_CAUSES = 50

const day = sql<string>`to_char(${partnerRequests.sentAt} at time zone 'UTC', 'YYYY-MM-DD')`
const round = (value: unknown, places = 1) =>
  value === null || value === undefined ? null : Math.round(Number(value) * 10 ** places) / 10 ** places
const ratio = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000

type Filter = ReturnType<typeof and>
const OFFER_JOIN = eq(offers.requestId, partnerRequests.id)
const CLICK_JOIN = eq(clicks.offerId, offers.id)
const IMPRESSION_JOIN = eq(impressions.offerId, offers.id)

/** The figures of one partner's leads sent in `[from, to)`: the queries share the filter and run together. */
// long-function: the report's queries share one filter and run together in one Promise.all; each query is one expression
export async function queryPartnerReport(db: LedgerDb, query: PartnerReportQuery): Promise<PartnerReport> {
  const leadLimit = query.leadLimit ?? 5000
  const sent = and(
    eq(partnerRequests.partnerId, query.partnerId),
    gte(partnerRequests.sentAt, query.from),
    lt(partnerRequests.sentAt, query.to),
  )
  const pays = query.pays ?? 'per_click'
  const [
    [requestsByDay, offersByDay, conversionsByDay],
    [byProduct, byStatus, causes],
    recent,
    spent,
    breakdowns,
  ] = await Promise.all([
    dailyQueries(db, sent),
    breakdownQueries(db, sent),
    recentRequests(db, sent, leadLimit),
    spendByDay(db, sent, pays),
    partnerBreakdowns(db, sent, query.sharePlacement === true),
  ])
  const listed = recent.slice(0, leadLimit)
  const daily = dailyRows(requestsByDay, offersByDay, conversionsByDay, spent)
  const sum = <T>(rows: readonly T[], pick: (row: T) => number) => rows.reduce((n, row) => n + pick(row), 0)
  const offersReturned = sum(requestsByDay, (r) => r.offersReturned)
  const offersWon = sum(offersByDay, (r) => r.offersWon)
  const offersDisplayed = sum(daily, (r) => r.offersDisplayed)
  const uniqueClicks = sum(daily, (r) => r.uniqueClicks)

  return {
    partnerId: query.partnerId,
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    requests: sum(daily, (r) => r.requests),
    responsesWithOffers: sum(daily, (r) => r.responsesWithOffers),
    offersReturned,
    offersWon,
    offersDisplayed,
    uniqueClicks,
    conversions: sum(daily, (r) => r.conversions),
    conversionAmount: centsToAmount(conversionsByDay.reduce((n, r) => n + BigInt(r.cents), 0n)),
    currency: 'USD',
    pays,
    spend: centsToAmount(spent.reduce((n, row) => n + BigInt(row.cents), 0n)),
    offersDropped: sum(requestsByDay, (r) => r.offersDropped),
    winRate: ratio(offersWon, offersReturned),
    clickThroughRate: ratio(uniqueClicks, offersDisplayed),
    averageBidByProductType: byProduct.map((row) => ({
      productType: row.productType,
      offers: row.offers,
      averageBid: round(row.averageBid, 4) as number,
    })),
    replies: byStatus.map(
      (row): ReplyStats => ({
        status: row.status as ReplyStats['status'],
        count: row.count,
        averageLatencyMs: round(row.average),
        p95LatencyMs: round(row.p95),
        maxLatencyMs: row.max === null ? null : Number(row.max),
      }),
    ),
    causes: causes.map(
      (row): ReplyCause => ({
        status: row.status as ReplyCause['status'],
        reason: row.reason ?? '',
        httpStatus: row.httpStatus,
        count: row.count,
        averageLatencyMs: round(row.average),
      }),
    ),
    daily,
    breakdowns,
    leads: leadEntries(
      listed,
      await leadDetails(
        db,
        listed.map((r) => r.id),
      ),
    ),
    leadsTruncated: recent.length > leadLimit,
  }
}

function dailyQueries(db: LedgerDb, sent: Filter) {
  return Promise.all([
    db
      .select({
        date: day,
        requests: sql<number>`count(*)::int`,
        responsesWithOffers: sql<number>`(count(*) filter (where ${partnerRequests.offerCount} > 0))::int`,
        offersReturned: sql<number>`coalesce(sum(${partnerRequests.offerCount}), 0)::int`,
        offersDropped: sql<number>`coalesce(sum(${partnerRequests.offersDropped}), 0)::int`,
      })
      .from(partnerRequests)
      .where(sent)
      .groupBy(day)
      .orderBy(day),
    db
      .select({
        date: day,
        offersWon: sql<number>`(count(*) filter (where ${offers.displayed}))::int`,
        offersDisplayed: sql<number>`count(${impressions.offerId})::int`,
        uniqueClicks: sql<number>`count(${clicks.offerId})::int`,
      })
      .from(offers)
      .innerJoin(partnerRequests, OFFER_JOIN)
      .leftJoin(impressions, IMPRESSION_JOIN)
      .leftJoin(clicks, CLICK_JOIN)
      .where(sent)
      .groupBy(day),
    db
      .select({
        date: day,
        conversions: sql<number>`count(*)::int`,
        // Whole cents, summed exactly; as text, since a bigint sum is a numeric past 2^53 in both drivers.
        cents: sql<string>`coalesce(sum(${conversions.amountCents}), 0)::text`,
      })
      .from(conversions)
      .innerJoin(partnerRequests, eq(conversions.requestId, partnerRequests.id))
      .where(sent)
      .groupBy(day),
  ] as const)
}

function breakdownQueries(db: LedgerDb, sent: Filter) {
  return Promise.all([
    db
      .select({
        productType: offers.productType,
        offers: sql<number>`count(*)::int`,
        averageBid: sql<number>`avg(${offers.rate})::float8`,
      })
      .from(offers)
      .innerJoin(partnerRequests, OFFER_JOIN)
      .where(sent)
      .groupBy(offers.productType)
      .orderBy(offers.productType),
    db
      .select({
        status: partnerRequests.status,
        count: sql<number>`count(*)::int`,
        average: sql<number | null>`avg(${partnerRequests.latencyMs})::float8`,
        p95: sql<
          number | null
        >`(percentile_cont(0.95) within group (order by ${partnerRequests.latencyMs}))::float8`,
        max: sql<number | null>`max(${partnerRequests.latencyMs})`,
      })
      .from(partnerRequests)
      .where(and(sent, sql`${partnerRequests.status} <> 'pending'`))
      .groupBy(partnerRequests.status)
      .orderBy(partnerRequests.status),
    db
      .select({
        status: partnerRequests.status,
        reason: partnerRequests.reason,
        httpStatus: partnerRequests.httpStatus,
        count: sql<number>`count(*)::int`,
        average: sql<number | null>`avg(${partnerRequests.latencyMs})::float8`,
      })
      .from(partnerRequests)
      .where(
        and(
          sent,
          inArray(partnerRequests.status, ['rejected', 'error', 'timeout']),
          isNotNull(partnerRequests.reason),
        ),
      )
      .groupBy(partnerRequests.status, partnerRequests.reason, partnerRequests.httpStatus)
      .orderBy(desc(sql`count(*)`), partnerRequests.status, partnerRequests.reason)
      .limit(MAX_CAUSES),
  ] as const)
}

function recentRequests(db: LedgerDb, sent: Filter, leadLimit: number) {
  return db
    .select({
      id: partnerRequests.id,
      leadId: partnerRequests.leadId,
      partnerLeadId: partnerRequests.partnerLeadId,
      sentAt: partnerRequests.sentAt,
      status: partnerRequests.status,
      reason: partnerRequests.reason,
      httpStatus: partnerRequests.httpStatus,
      latencyMs: partnerRequests.latencyMs,
      offerCount: partnerRequests.offerCount,
      offersDropped: partnerRequests.offersDropped,
    })
    .from(partnerRequests)
    .where(sent)
    .orderBy(desc(partnerRequests.sentAt), desc(partnerRequests.id))
    .limit(leadLimit + 1)
}

/** The offers of the listed requests, with their result, impression and click, and which requests converted. */
async function leadDetails(db: LedgerDb, listedIds: string[]) {
  const [leadOffers, converted] =
    listedIds.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({
              requestId: offers.requestId,
              offerId: offers.id,
              productType: offers.productType,
              rate: offers.rate,
              won: offers.displayed,
              outcome: offers.outcome,
              bidRank: offers.bidRank,
              gapCents: offers.gapCents,
              impressedOffer: impressions.offerId,
              clickedOffer: clicks.offerId,
            })
            .from(offers)
            .leftJoin(impressions, IMPRESSION_JOIN)
            .leftJoin(clicks, CLICK_JOIN)
            .where(inArray(offers.requestId, listedIds))
            .orderBy(offers.requestId, offers.position),
          db
            .select({ requestId: conversions.requestId })
            .from(conversions)
            .where(inArray(conversions.requestId, listedIds)),
        ])
  const convertedRequests = new Set(converted.map((row) => row.requestId))
  const offersByRequest = new Map<string, PartnerReport['leads'][number]['offers']>()
  for (const offer of leadOffers) {
    const list = offersByRequest.get(offer.requestId) ?? []
    list.push({
      offerId: offer.offerId,
      productType: offer.productType,
      rate: offer.rate,
      result: offer.won ? 'won' : 'lost',
      outcome: offer.outcome as OfferOutcome | null,
      bidRank: offer.bidRank,
      gapToWinningBid: offer.gapCents === null ? null : centsToAmount(BigInt(offer.gapCents)),
      displayed: offer.impressedOffer !== null,
      clicked: offer.clickedOffer !== null,
    })
    offersByRequest.set(offer.requestId, list)
  }

  return { offersByRequest, convertedRequests }
}

/** One row per day with requests, joined with that day's offers and conversions. */
function dailyRows(
  requestsByDay: Awaited<ReturnType<typeof dailyQueries>>[0],
  offersByDay: Awaited<ReturnType<typeof dailyQueries>>[1],
  conversionsByDay: Awaited<ReturnType<typeof dailyQueries>>[2],
  spent: Awaited<ReturnType<typeof spendByDay>>,
): PartnerReport['daily'] {
  const spendDay = new Map(spent.map((row) => [row.date, BigInt(row.cents)]))
  const offersDay = new Map(offersByDay.map((row) => [row.date, row]))
  const conversionsDay = new Map(conversionsByDay.map((row) => [row.date, row]))
  return requestsByDay.map((row) => ({
    date: row.date,
    requests: row.requests,
    responsesWithOffers: row.responsesWithOffers,
    offersDisplayed: offersDay.get(row.date)?.offersDisplayed ?? 0,
    uniqueClicks: offersDay.get(row.date)?.uniqueClicks ?? 0,
    conversions: conversionsDay.get(row.date)?.conversions ?? 0,
    spend: centsToAmount(spendDay.get(row.date) ?? 0n),
  }))
}

/** The win/loss entries of the listed requests, newest first. */
function leadEntries(
  listed: Awaited<ReturnType<typeof recentRequests>>,
  { offersByRequest, convertedRequests }: Awaited<ReturnType<typeof leadDetails>>,
): PartnerReport['leads'] {
  return listed.map((request) => ({
    leadId: request.leadId,
    partnerLeadId: request.partnerLeadId,
    sentAt: request.sentAt.toISOString(),
    status: request.status as RequestStatus,
    reason: request.reason,
    httpStatus: request.httpStatus,
    latencyMs: request.latencyMs,
    converted: convertedRequests.has(request.id),
    outcome: requestOutcome(request),
    offersDropped: request.offersDropped,
    offers: offersByRequest.get(request.id) ?? [],
  }))
}

/**
 * A request whose offers never reached the auction: it timed out, or the contract check dropped every one
 * (the reply is then recorded as an error, with the drop's reason).
 */
function requestOutcome(request: {
  status: string
  offerCount: number
  offersDropped: number
}): PartnerReport['leads'][number]['outcome'] {
  if (request.status === 'timeout') return 'timed_out'
  return request.offerCount === 0 && request.offersDropped > 0 ? 'dropped_by_contract_check' : null
}
