/**
 * @module The publisher's report per UTC day and placement (docs/placements.md): insurance searches created,
 * completed, offers shown and clicked (the BFF's records and the widget's measure), and second-look leads,
 * their unique impressions and clicks and what partners owe for them (the spend rules of `partner-spend.ts`,
 * per partner's contract). Insurance figures fall on the day the search was created, second-look counts on
 * the day the lead was, earnings on the day the lead was sent (as a partner's invoice counts them).
 */
import { and, eq, gte, lt, sql } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import { centsToAmount, spendByDay } from './partner-spend.ts'
import type { ContractPays, PlacementReportRow, PlacementsReport } from './report-types.ts'
import {
  clicks,
  impressions,
  leads,
  partnerRequests,
  placementSearches,
  placementSearchOffers,
} from './schema.ts'

export interface PlacementsQuery {
  from: Date
  to: Date
  /** Each partner's contract (the registry's `pays`); per click for a partner it does not name. */
  pays: ReadonlyMap<string, ContractPays>
}

const utcDay = (at: unknown) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD')`

/** The insurance searches created in the range, per UTC day and placement, with their measured offers. */
function insuranceSearches(db: LedgerDb, { from, to }: { from: Date; to: Date }) {
  const searchDay = utcDay(placementSearches.createdAt)
  const inRange = and(gte(placementSearches.createdAt, from), lt(placementSearches.createdAt, to))
  // Only the offers of searches created in the range: the searches' index on `created_at` picks them, and
  // each one's offers come by its key, so the table's other rows are never read.
  const perSearch = db
    .select({
      searchUuid: placementSearchOffers.searchUuid,
      shown: sql<number>`count(${placementSearchOffers.shownAt})`.as('shown'),
      clicked: sql<number>`count(${placementSearchOffers.clickedAt})`.as('clicked'),
    })
    .from(placementSearchOffers)
    .innerJoin(placementSearches, eq(placementSearches.searchUuid, placementSearchOffers.searchUuid))
    .where(inRange)
    .groupBy(placementSearchOffers.searchUuid)
    .as('measured')
  return db
    .select({
      date: searchDay,
      placement: placementSearches.placement,
      searches: sql<number>`count(*)::int`,
      searchesCompleted: sql<number>`count(${placementSearches.completedAt})::int`,
      offersShown: sql<number>`coalesce(sum(${perSearch.shown}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${perSearch.clicked}), 0)::int`,
    })
    .from(placementSearches)
    .leftJoin(perSearch, eq(perSearch.searchUuid, placementSearches.searchUuid))
    .where(inRange)
    .groupBy(searchDay, placementSearches.placement)
}

export async function queryPlacementsReport(db: LedgerDb, query: PlacementsQuery): Promise<PlacementsReport> {
  const { from, to } = query
  const leadDay = utcDay(leads.createdAt)
  const [searches, secondLook, partners] = await Promise.all([
    insuranceSearches(db, query),
    db
      .select({
        date: leadDay,
        placement: leads.placement,
        secondLookLeads: sql<number>`count(*)::int`,
        secondLookOffersShown: sql<number>`coalesce(sum((select count(*) from ${impressions} i where i.lead_id = ${leads.id})), 0)::int`,
        secondLookClicks: sql<number>`coalesce(sum((select count(*) from ${clicks} c where c.lead_id = ${leads.id})), 0)::int`,
      })
      .from(leads)
      .where(and(gte(leads.createdAt, from), lt(leads.createdAt, to)))
      .groupBy(leadDay, leads.placement),
    db
      .selectDistinct({ partnerId: partnerRequests.partnerId })
      .from(partnerRequests)
      .where(and(gte(partnerRequests.sentAt, from), lt(partnerRequests.sentAt, to))),
  ])
  const spent = await Promise.all(
    partners.map(({ partnerId }) =>
      spendByDay(
        db,
        and(
          eq(partnerRequests.partnerId, partnerId),
          gte(partnerRequests.sentAt, from),
          lt(partnerRequests.sentAt, to),
        ),
        query.pays.get(partnerId) ?? 'per_click',
        { byPlacement: true },
      ),
    ),
  )

  const rows = new Map<string, PlacementReportRow & { cents: bigint }>()
  const rowOf = (date: string, placement: string | null) => {
    const key = JSON.stringify([date, placement])
    const row = rows.get(key) ?? emptyRow(date, placement)
    rows.set(key, row)
    return row
  }
  for (const s of searches) Object.assign(rowOf(s.date, s.placement), s)
  for (const l of secondLook) Object.assign(rowOf(l.date, l.placement), l)
  for (const day of spent.flat()) rowOf(day.date, day.placement).cents += BigInt(day.cents)
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    rows: [...rows.values()]
      .sort((a, b) => a.date.localeCompare(b.date) || byPlacement(a.placement, b.placement))
      .map(({ cents, ...row }) => ({ ...row, earnings: centsToAmount(cents) })),
  }
}

/** Named placements in order, then the row of no placement. */
function byPlacement(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return a < b ? -1 : 1
}

function emptyRow(date: string, placement: string | null): PlacementReportRow & { cents: bigint } {
  return {
    date,
    placement,
    searches: 0,
    searchesCompleted: 0,
    offersShown: 0,
    clicks: 0,
    secondLookLeads: 0,
    secondLookOffersShown: 0,
    secondLookClicks: 0,
    earnings: 0,
    cents: 0n,
  }
}
