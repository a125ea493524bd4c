/**
 * @module What a second-look search tells the visitor while lenders are asked: how many lenders, how many
 * answered and how long at most (the `secondLook` extension of the rate table, docs/partner-interface.md),
 * and how many offer places can still fill. Pure, so each rule is tested without React.
 */
import type { RateTable } from '../contract/rate-table.ts'

export interface LenderProgress {
  asked: number
  answered: number
  /** Epoch ms when the last tier window that can still run closes; `undefined` when the server did not say. */
  answerBy: number | undefined
}

/**
 * The lenders asked and answered: the server's own count when it sends one (it knows the tiers still to
 * run), else what the pending list showed (`seen`: every partner ever pending).
 */
export function lenderProgressOf(
  rateTable: RateTable | undefined,
  seen: { answered: number; total: number },
): LenderProgress {
  const extension = rateTable?.secondLook
  if (!extension) return { asked: seen.total, answered: seen.answered, answerBy: undefined }
  const answerBy = Date.parse(extension.answerBy)
  return {
    asked: Math.max(0, extension.partnersAsked),
    answered: Math.min(Math.max(0, extension.partnersAnswered), Math.max(0, extension.partnersAsked)),
    answerBy: Number.isNaN(answerBy) ? undefined : answerBy,
  }
}

/** Whole seconds until `answerBy`, never negative (a late settle reads "0 s", not a negative count). */
export function secondsLeft(answerBy: number, now: number): number {
  return Math.max(0, Math.ceil((answerBy - now) / 1000))
}

/**
 * Offer places that can still fill. The marketplace shows at most one winner per product type, so a
 * second look can add no more cards than the distinct product types its pending lenders offer; an offer
 * search, one or more per pending partner (at least one place each).
 */
export function placesThatCanFill(rateTable: RateTable, secondLook: boolean): number {
  const pending = rateTable.pendingResponses
  if (!secondLook) return pending.length
  const types = new Set(pending.flatMap((response) => response.offerCatalogProductTypes))
  const filled = new Set(rateTable.offers.map((offer) => offer.productType))
  let open = 0
  for (const type of types) if (!filled.has(type)) open++
  return Math.min(pending.length, Math.max(open, pending.length > 0 && types.size === 0 ? 1 : 0))
}
