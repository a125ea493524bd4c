/**
 * @module Reading a 2xx upstream answer: JSON parsed and checked with the contract, offers that break it
 * dropped alone, and anything else refused as malformed with a log line (field paths only) and a metric.
 */
import { toFieldIssues } from '../../contract/common.ts'
import type { RateTable } from '../../contract/offer-search.ts'
import { siftRateTable } from '../../contract/sift-rate-table.ts'
import { createDroppedItemsReport } from '../dropped-items-report.ts'
import type { Logger } from '../logger.ts'
import type { BffMetrics } from '../metrics.ts'
import type { UpstreamOperation } from './operations.ts'
import type { RawResponse } from './transport.ts'
import { UpstreamError } from './upstream-error.ts'

type SchemaError = Parameters<typeof toFieldIssues>[0]

interface Schema<T> {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: SchemaError }
}

export interface AnswerReader {
  parseJson(operation: UpstreamOperation, response: RawResponse): unknown
  validate<T>(operation: UpstreamOperation, schema: Schema<T>, value: unknown): T
  /**
   * The rate table with every offer that breaks the contract (or has no http(s) link) dropped alone, and
   * `dropped` true when anything was: the caller then cannot answer the upstream's bytes as they came.
   */
  validateRateTable(operation: 'create' | 'poll', value: unknown): { table: RateTable; dropped: boolean }
}

export function createAnswerReader(options: { logger: Logger; metrics?: BffMetrics }): AnswerReader {
  const { logger, metrics } = options
  const reportDropped = createDroppedItemsReport({ logger, metrics })

  function refuse(operation: UpstreamOperation, error: SchemaError): never {
    metrics?.upstreamRequests.inc({ operation, status: 'malformed' })
    // Field paths only: the values may be personal data.
    const fields = toFieldIssues(error)
      .slice(0, 5)
      .map((issue) => issue.field)
    logger.error({ operation, fields }, 'upstream body does not match the offer search contract')
    throw new UpstreamError('malformed', 'upstream body does not match the contract')
  }

  return {
    parseJson(operation, response) {
      try {
        return JSON.parse(response.text)
      } catch {
        metrics?.upstreamRequests.inc({ operation, status: 'malformed' })
        logger.error({ operation, status: response.status }, 'upstream answered a body that is not JSON')
        throw new UpstreamError('malformed', 'upstream body is not JSON', { status: response.status })
      }
    },
    validate(operation, schema, value) {
      const parsed = schema.safeParse(value)
      if (parsed.success) return parsed.data
      return refuse(operation, parsed.error)
    },
    validateRateTable(operation, value) {
      const sifted = siftRateTable(value)
      if (!sifted.ok) refuse(operation, sifted.error)
      reportDropped(sifted.table.uuid, sifted.dropped)
      return { table: sifted.table, dropped: sifted.dropped.length > 0 }
    },
  }
}
