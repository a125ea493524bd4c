/**
 * @module The batch statements' column lists come from the drizzle schema: the helper renders names and
 * types from the table. That what the batch writes reads back column for column through the schema, on
 * both databases, is in `ledger-store.test.ts` ("fills every column...").
 */
import { getTableColumns } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { allColumns, columnList } from '../../src/ledger/recordset.ts'
import { leads, offers, partnerRequests } from '../../src/ledger/schema.ts'

const dialect = new PgDialect()

describe('columnList', () => {
  it('names the columns by their SQL names and types, in the order asked', () => {
    const list = columnList(leads, ['createdAt', 'id'])
    expect(list.definition).toBe('"created_at" timestamp with time zone, "id" uuid')
    expect(dialect.sqlToQuery(list.names).sql).toBe('"created_at", "id"')
    expect(list.row({ id: 'x', createdAt: '2026-03-02T10:00:00.000Z' })).toEqual({
      created_at: '2026-03-02T10:00:00.000Z',
      id: 'x',
    })
  })

  it('updates every column but the key from the recordset', () => {
    const list = columnList(offers, ['id', 'rank', 'recommendationScore'])
    expect(dialect.sqlToQuery(list.assignments).sql).toBe(
      '"rank" = v."rank", "recommendation_score" = v."recommendation_score"',
    )
    expect(list.definition).toBe('"id" uuid, "rank" integer, "recommendation_score" double precision')
  })

  it('lists every column of a table for a whole-row insert, and refuses a field the table lacks', () => {
    for (const table of [leads, partnerRequests, offers]) {
      const names = Object.values(getTableColumns(table)).map((c) => `"${c.name}"`)
      expect(dialect.sqlToQuery(allColumns(table).names).sql).toBe(names.join(', '))
    }
    expect(() => columnList(leads, ['nope' as 'id'])).toThrow(/no column "nope"/)
  })
})
