/**
 * @module A partner's leads broken down by one coarse dimension of the lead at a time (state, credit band,
 * loan purpose, amount band, the publisher's placement): per value, the figures docs/partner-interface.md lists (requests, responses
 * with an offer, offers, offers displayed, unique clicks, average bid). Each dimension is one column of
 * `marketplace_leads` in `BREAKDOWN_COLUMNS`. No cell is suppressed: the partner was sent each of these leads
 * whole (docs/decisions/0112-offer-outcomes.md). The placement is the publisher's, not the lead's: a partner
 * that is not sent it (no `sendPlacement`, docs/placements.md) sees one row, `not_shared`.
 */
import { type and, eq, sql } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import type { BreakdownDimension, BreakdownRow } from './report-types.ts'
import { clicks, impressions, leads, offers, partnerRequests } from './schema.ts'

type Filter = ReturnType<typeof and>

/** The lead column of each dimension. */
const BREAKDOWN_COLUMNS = {
  state: leads.state,
  creditBand: leads.creditBand,
  loanPurpose: leads.loanPurpose,
  amountBand: leads.amountBand,
  placement: leads.placement,
} as const satisfies Record<BreakdownDimension, unknown>

/** Leads stored before a dimension existed (migration 0007) have no value for it. */
const UNRECORDED = 'not_recorded'
/** Leads from a spot the publisher did not name (docs/placements.md writes it so too). */
const NO_PLACEMENT = '(none)'
const NOT_SHARED = 'not_shared'

function dimensionValue(dimension: BreakdownDimension, sharePlacement: boolean) {
  // Literals, not parameters: the select, group by and order by must be the same expression.
  if (dimension !== 'placement') {
    return sql<string>`coalesce(${BREAKDOWN_COLUMNS[dimension]}, ${sql.raw(`'${UNRECORDED}'`)})`
  }
  return sharePlacement
    ? sql<string>`coalesce(${leads.placement}, ${sql.raw(`'${NO_PLACEMENT}'`)})`
    : sql<string>`${sql.raw(`'${NOT_SHARED}'::text`)}`
}

function breakdown(
  db: LedgerDb,
  sent: Filter,
  dimension: BreakdownDimension,
  sharePlacement: boolean,
): Promise<BreakdownRow[]> {
  const value = dimensionValue(dimension, sharePlacement)
  return db
    .select({
      value,
      // A request repeats once per offer in the join: counted once.
      requests: sql<number>`count(distinct ${partnerRequests.id})::int`,
      responsesWithOffers: sql<number>`(count(distinct ${partnerRequests.id}) filter (where ${partnerRequests.offerCount} > 0))::int`,
      offers: sql<number>`count(${offers.id})::int`,
      offersDisplayed: sql<number>`count(${impressions.offerId})::int`,
      uniqueClicks: sql<number>`count(${clicks.offerId})::int`,
      averageBid: sql<number | null>`(round(avg(${offers.rate})::numeric, 4))::float8`,
    })
    .from(partnerRequests)
    .innerJoin(leads, eq(leads.id, partnerRequests.leadId))
    .leftJoin(offers, eq(offers.requestId, partnerRequests.id))
    .leftJoin(impressions, eq(impressions.offerId, offers.id))
    .leftJoin(clicks, eq(clicks.offerId, offers.id))
    .where(sent)
    .groupBy(value)
    .orderBy(sql`count(distinct ${partnerRequests.id}) desc`, value)
}

/** Every dimension's breakdown of the leads `sent` selects. */
export async function partnerBreakdowns(
  db: LedgerDb,
  sent: Filter,
  sharePlacement: boolean,
): Promise<Record<BreakdownDimension, BreakdownRow[]>> {
  const dimensions = Object.keys(BREAKDOWN_COLUMNS) as BreakdownDimension[]
  const rows = await Promise.all(dimensions.map((d) => breakdown(db, sent, d, sharePlacement)))
  return Object.fromEntries(dimensions.map((d, i) => [d, rows[i] ?? []])) as Record<
    BreakdownDimension,
    BreakdownRow[]
  >
}
