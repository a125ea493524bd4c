/**
 * @module Counts and logs the rate-table items the contract made the BFF drop (src/contract/sift-rate-table.ts):
 * each item once per rate table however often the table is polled, one log line per rate table, no values
 * (reasons, field names and ids only: an offer's text could carry anything).
 */
import type { DroppedItem } from '../contract/sift-rate-table.ts'
import type { Logger } from './logger.ts'
import type { BffMetrics } from './metrics.ts'

export type DroppedItemsReport = (rateTableUuid: string, dropped: readonly DroppedItem[]) => void

export function createDroppedItemsReport(options: {
  logger: Logger
  metrics: BffMetrics | undefined
  /** Rate tables remembered; the oldest is forgotten first (a search lives a few seconds). */
  maxTables?: number
}): DroppedItemsReport {
  const { logger, metrics } = options
  const maxTables = options.maxTables ?? 10_000
  const seen = new Map<string, Set<string>>()
  return function reportDropped(rateTableUuid, dropped) {
    if (dropped.length === 0) return
    let keys = seen.get(rateTableUuid)
    const first = keys === undefined
    if (!keys) {
      keys = new Set()
      seen.set(rateTableUuid, keys)
      if (seen.size > maxTables) seen.delete(seen.keys().next().value as string)
    }
    dropped.forEach((d, index) => {
      const key = `${d.item}:${d.id ?? `#${index}`}:${d.reason}`
      if (keys.has(key)) return
      keys.add(key)
      metrics?.droppedRateTableItems.inc({ item: d.item, reason: d.reason })
    })
    if (first) {
      logger.warn(
        { rateTableUuid, dropped: dropped.map(({ item, reason, id }) => ({ item, reason, id })) },
        'rate table items break the offer search contract: dropped alone, the rest are served',
      )
    }
  }
}
