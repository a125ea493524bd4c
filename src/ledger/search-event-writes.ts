/**
 * @module The placements part of a write-batch flush (docs/placements.md): an insurance search's row, its
 * completion, and the offers the widget measured, as data-modifying CTEs of the batch's one statement. A repeat
 * changes nothing: a search inserts once, completes once (`completed_at` only while null), and each offer keeps
 * the first time it was shown and clicked. Events of one search in one flush are folded first, since the CTEs
 * of a statement do not see each other's rows (and one insert may not touch a row twice).
 */
import { type SQL, sql } from 'drizzle-orm'
import { allColumns, columnName, recordset } from './recordset.ts'
import { placementSearches, placementSearchOffers } from './schema.ts'
import type { Op } from './write-ops.ts'

const SEARCH = allColumns(placementSearches)
const SEARCH_OFFER = allColumns(placementSearchOffers)

type Row = Record<string, string | null>
const earliest = (a: string | null | undefined, b: string | null): string | null =>
  a == null ? b : b == null ? a : a < b ? a : b

/** The rows of the batch's search events: new searches, completions of earlier ones, measured offers. */
export function searchEventRows(batch: readonly Op[]) {
  const events = batch.flatMap((op) => (op.kind === 'search' ? op.events : []))
  const created = new Map<
    string,
    { placement: string | null; createdAt: string; completedAt: string | null }
  >()
  for (const e of events) {
    if (e.kind !== 'created' || created.has(e.searchUuid)) continue
    const at = e.at.toISOString()
    created.set(e.searchUuid, { placement: e.placement, createdAt: at, completedAt: e.completed ? at : null })
  }
  const completed = new Map<string, string>()
  const offers = new Map<string, Row>()
  const offer = (searchUuid: string, offerId: string): Row => {
    const key = `${searchUuid} ${offerId}`
    const row = offers.get(key) ?? { searchUuid, offerId, shownAt: null, clickedAt: null }
    offers.set(key, row)
    return row
  }
  for (const e of events) {
    const at = e.at.toISOString()
    if (e.kind === 'completed') {
      const fresh = created.get(e.searchUuid)
      if (fresh) fresh.completedAt = earliest(fresh.completedAt, at)
      else completed.set(e.searchUuid, earliest(completed.get(e.searchUuid), at) ?? at)
    } else if (e.kind === 'shown') {
      for (const id of e.offerIds) {
        const row = offer(e.searchUuid, id)
        row.shownAt = earliest(row.shownAt, at)
      }
    } else if (e.kind === 'clicked') {
      const row = offer(e.searchUuid, e.offerId)
      row.clickedAt = earliest(row.clickedAt, at)
    }
  }
  return {
    searches: [...created].map(([searchUuid, r]) => SEARCH.row({ searchUuid, ...r })),
    completions: [...completed].map(([searchUuid, completedAt]) => ({
      search_uuid: searchUuid,
      completed_at: completedAt,
    })),
    offers: [...offers.values()].map((r) =>
      SEARCH_OFFER.row({
        searchUuid: r.searchUuid ?? '',
        offerId: r.offerId ?? '',
        shownAt: r.shownAt ?? null,
        clickedAt: r.clickedAt ?? null,
      }),
    ),
  }
}

/** The CTEs writing `rows` (none when the batch has no search event). */
export function searchEventCtes(rows: ReturnType<typeof searchEventRows>): SQL[] {
  const ctes: SQL[] = []
  if (rows.searches.length > 0) {
    ctes.push(sql`new_placement_searches as (
      insert into ${placementSearches} (${SEARCH.names})
      select * from ${recordset(rows.searches, SEARCH.definition)}
      on conflict do nothing)`)
  }
  if (rows.completions.length > 0) {
    const completedAt = columnName(placementSearches.completedAt)
    const searchUuid = columnName(placementSearches.searchUuid)
    ctes.push(sql`completed_placement_searches as (
      update ${placementSearches} as s set ${completedAt} = v."completed_at"
      from ${recordset(rows.completions, '"search_uuid" uuid, "completed_at" timestamptz')}
      where s.${searchUuid} = v."search_uuid" and s.${completedAt} is null)`)
  }
  if (rows.offers.length > 0) {
    const shownAt = columnName(placementSearchOffers.shownAt)
    const clickedAt = columnName(placementSearchOffers.clickedAt)
    ctes.push(sql`measured_search_offers as (
      insert into ${placementSearchOffers} (${SEARCH_OFFER.names})
      select * from ${recordset(rows.offers, SEARCH_OFFER.definition)}
      on conflict (${columnName(placementSearchOffers.searchUuid)}, ${columnName(placementSearchOffers.offerId)})
      do update set ${shownAt} = coalesce(${placementSearchOffers}.${shownAt}, excluded.${shownAt}),
        ${clickedAt} = coalesce(${placementSearchOffers}.${clickedAt}, excluded.${clickedAt}))`)
  }
  return ctes
}
