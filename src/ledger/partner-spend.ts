/**
 * @module What a partner owes per UTC day of the leads sent (docs/decisions/0112-offer-outcomes.md), so it
 * can reconcile an invoice: under a per-click contract the bids of its offers that were clicked (unique
 * clicks), under a per-conversion contract, per conversion it posted, the bid of its offer that lead was
 * shown or clicked (the higher, if several). Bids are summed as whole cents, exactly.
 */
import { type and, eq, sql } from 'drizzle-orm'
import type { LedgerDb } from './ledger-db.ts'
import type { ContractPays } from './report-types.ts'
import { clicks, conversions, impressions, leads, offers, partnerRequests } from './schema.ts'

type Filter = ReturnType<typeof and>

const day = sql<string>`to_char(${partnerRequests.sentAt} at time zone 'UTC', 'YYYY-MM-DD')`
/** A bid in whole cents: rounded once, per offer, before any sum (16.67 is 1667.0000000000002 cents in floating point). */
const cents = (rate: unknown) => sql`round(${rate} * 100)::bigint`

/** One UTC day's cents, as text (a bigint sum is a numeric in both drivers); per placement when asked. */
export interface DaySpend {
  date: string
  cents: string
  /** With `byPlacement`: the lead's placement (null: none); always null without it. */
  placement: string | null
}

/**
 * Cents owed per UTC day of the leads sent; with `byPlacement`, per day and the lead's placement
 * (docs/placements.md's earnings), by the same rules.
 */
export function spendByDay(
  db: LedgerDb,
  sent: Filter,
  pays: ContractPays,
  options: { byPlacement?: boolean } = {},
): Promise<DaySpend[]> {
  const byPlacement = options.byPlacement === true
  const placement = byPlacement ? sql<string | null>`${leads.placement}` : sql<null>`null`
  const groups = byPlacement ? [day, leads.placement] : [day]
  if (pays === 'per_click') {
    const query = db
      .select({ date: day, placement, cents: sql<string>`coalesce(sum(${cents(offers.rate)}), 0)::text` })
      .from(offers)
      .innerJoin(partnerRequests, eq(offers.requestId, partnerRequests.id))
      .innerJoin(clicks, eq(clicks.offerId, offers.id))
      .$dynamic()
    return (byPlacement ? query.innerJoin(leads, eq(leads.id, partnerRequests.leadId)) : query)
      .where(sent)
      .groupBy(...groups)
  }
  // The bid a conversion is billed at: its lead's offer from this partner that reached the visitor.
  const bid = sql`(select max(${cents(sql`o.rate`)}) from ${offers} o
    where o.request_id = ${conversions.requestId}
      and (exists (select 1 from ${clicks} c where c.offer_id = o.id)
        or exists (select 1 from ${impressions} i where i.offer_id = o.id)))`
  const query = db
    .select({ date: day, placement, cents: sql<string>`coalesce(sum(${bid}), 0)::text` })
    .from(conversions)
    .innerJoin(partnerRequests, eq(conversions.requestId, partnerRequests.id))
    .$dynamic()
  return (byPlacement ? query.innerJoin(leads, eq(leads.id, partnerRequests.leadId)) : query)
    .where(sent)
    .groupBy(...groups)
}

/** Whole cents as an amount with two decimals, exactly (a bigint sum never loses a cent). */
export function centsToAmount(cents: bigint): number {
  return Number(cents / 100n) + Number(cents % 100n) / 100
}
