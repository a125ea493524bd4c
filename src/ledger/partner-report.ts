/**
 * @module The figures seed 001 says partners are supplied: requests, responses with at least one offer,
 * offers returned, offers displayed, unique clicks, average bid per product type, and the lead-level
 * win/loss report. Every figure counts the leads *sent* in `[from, to)`, whenever they were clicked.
 */
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { LedgerDb } from './open-ledger.ts'
import { clicks, offers, partnerRequests } from './schema.ts'
import type { PartnerReport, RequestStatus } from './types.ts'

export interface PartnerReportQuery {
  partnerId: string
  from: Date
  to: Date
  /** Most leads listed in the win/loss report (the newest); totals are never cut. */
  leadLimit?: number
}

const day = sql<string>`to_char(${partnerRequests.sentAt} at time zone 'UTC', 'YYYY-MM-DD')`

export async function queryPartnerReport(db: LedgerDb, query: PartnerReportQuery): Promise<PartnerReport> {
  const leadLimit = query.leadLimit ?? 5000
  const sent = and(
    eq(partnerRequests.partnerId, query.partnerId),
    gte(partnerRequests.sentAt, query.from),
    lt(partnerRequests.sentAt, query.to),
  )
  const offerJoin = eq(offers.requestId, partnerRequests.id)
  const clickJoin = eq(clicks.offerId, offers.id)

  const [requestsByDay, offersByDay, byProduct, recent] = await Promise.all([
    db
      .select({
        date: day,
        requests: sql<number>`count(*)::int`,
        responsesWithOffers: sql<number>`(count(*) filter (where ${partnerRequests.offerCount} > 0))::int`,
        offersReturned: sql<number>`coalesce(sum(${partnerRequests.offerCount}), 0)::int`,
      })
      .from(partnerRequests)
      .where(sent)
      .groupBy(day)
      .orderBy(day),
    db
      .select({
        date: day,
        offersDisplayed: sql<number>`(count(*) filter (where ${offers.displayed}))::int`,
        uniqueClicks: sql<number>`count(${clicks.offerId})::int`,
      })
      .from(offers)
      .innerJoin(partnerRequests, offerJoin)
      .leftJoin(clicks, clickJoin)
      .where(sent)
      .groupBy(day),
    db
      .select({
        productType: offers.productType,
        offers: sql<number>`count(*)::int`,
        averageBid: sql<number>`avg(${offers.rate})::float8`,
      })
      .from(offers)
      .innerJoin(partnerRequests, offerJoin)
      .where(sent)
      .groupBy(offers.productType)
      .orderBy(offers.productType),
    db
      .select({
        id: partnerRequests.id,
        leadId: partnerRequests.leadId,
        partnerLeadId: partnerRequests.partnerLeadId,
        sentAt: partnerRequests.sentAt,
        status: partnerRequests.status,
      })
      .from(partnerRequests)
      .where(sent)
      .orderBy(desc(partnerRequests.sentAt), desc(partnerRequests.id))
      .limit(leadLimit + 1),
  ])

  const listed = recent.slice(0, leadLimit)
  const leadOffers =
    listed.length === 0
      ? []
      : await db
          .select({
            requestId: offers.requestId,
            offerId: offers.id,
            productType: offers.productType,
            rate: offers.rate,
            displayed: offers.displayed,
            clickedOffer: clicks.offerId,
          })
          .from(offers)
          .leftJoin(clicks, clickJoin)
          .where(
            inArray(
              offers.requestId,
              listed.map((r) => r.id),
            ),
          )
          .orderBy(offers.requestId, offers.position)
  const offersByRequest = new Map<string, PartnerReport['leads'][number]['offers']>()
  for (const offer of leadOffers) {
    const list = offersByRequest.get(offer.requestId) ?? []
    list.push({
      offerId: offer.offerId,
      productType: offer.productType,
      rate: offer.rate,
      result: offer.displayed ? 'won' : 'lost',
      clicked: offer.clickedOffer !== null,
    })
    offersByRequest.set(offer.requestId, list)
  }

  const offersDay = new Map(offersByDay.map((row) => [row.date, row]))
  const daily = requestsByDay.map((row) => ({
    date: row.date,
    requests: row.requests,
    responsesWithOffers: row.responsesWithOffers,
    offersDisplayed: offersDay.get(row.date)?.offersDisplayed ?? 0,
    uniqueClicks: offersDay.get(row.date)?.uniqueClicks ?? 0,
  }))
  const sum = (pick: (row: (typeof daily)[number]) => number) => daily.reduce((n, row) => n + pick(row), 0)

  return {
    partnerId: query.partnerId,
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    requests: sum((r) => r.requests),
    responsesWithOffers: sum((r) => r.responsesWithOffers),
    offersReturned: requestsByDay.reduce((n, row) => n + row.offersReturned, 0),
    offersDisplayed: sum((r) => r.offersDisplayed),
    uniqueClicks: sum((r) => r.uniqueClicks),
    averageBidByProductType: byProduct.map((row) => ({
      productType: row.productType,
      offers: row.offers,
      averageBid: Math.round(Number(row.averageBid) * 10_000) / 10_000,
    })),
    daily,
    leads: listed.map((request) => ({
      leadId: request.leadId,
      partnerLeadId: request.partnerLeadId,
      sentAt: request.sentAt.toISOString(),
      status: request.status as RequestStatus,
      offers: offersByRequest.get(request.id) ?? [],
    })),
    leadsTruncated: recent.length > leadLimit,
  }
}
