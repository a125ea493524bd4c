/**
 * @module Bulk rows as one JSON parameter (`jsonb_to_recordset`), with every column list taken from the
 * drizzle schema (`schema.ts`): the names, the SQL types and the insert's column order come from the table,
 * so a column added there is one edit, and a row builder that misses it does not compile.
 */
import { type Column, getTableColumns, type SQL, sql, type Table } from 'drizzle-orm'

/** What a column's value travels as inside the JSON parameter: timestamps as ISO strings, jsonb as itself. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue }

/** A table's columns by their schema (TypeScript) names. */
export type FieldOf<T extends Table> = keyof T['_']['columns'] & string

/** Some columns of one table, in a fixed order, as the raw statements of a batch need them. */
export interface ColumnList<F extends string> {
  readonly fields: readonly F[]
  /** `"id", "search_uuid", …`: an insert's or a select's column list. */
  readonly names: SQL
  /** `"id" uuid, "search_uuid" uuid, …`: the record definition `jsonb_to_recordset` needs. */
  readonly definition: string
  /** `"status" = v."status", …` for every field but `id`: an update from the recordset `v`. */
  readonly assignments: SQL
  /** A row keyed by schema field, re-keyed by SQL column name for the JSON parameter. */
  row(values: Record<F, JsonValue>): Record<string, JsonValue>
}

/** The named columns of `table`, in the order given. */
export function columnList<T extends Table, F extends FieldOf<T>>(
  table: T,
  fields: readonly F[],
): ColumnList<F> {
  const columns: Record<string, Column> = getTableColumns(table)
  const picked = fields.map((field) => {
    const column = columns[field]
    if (column === undefined) throw new Error(`ledger schema: no column "${field}" in this table`)
    return { field, name: column.name, type: column.getSQLType() }
  })
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`
  return {
    fields,
    names: sql.join(
      picked.map((c) => sql.identifier(c.name)),
      sql`, `,
    ),
    definition: picked.map((c) => `${quoted(c.name)} ${c.type}`).join(', '),
    assignments: sql.join(
      picked
        .filter((c) => c.field !== 'id')
        .map((c) => sql`${sql.identifier(c.name)} = v.${sql.identifier(c.name)}`),
      sql`, `,
    ),
    row(values) {
      const row: Record<string, JsonValue> = {}
      for (const c of picked) row[c.name] = values[c.field]
      return row
    },
  }
}

/** Every column of `table`, in schema order: what an insert of whole rows writes. */
export function allColumns<T extends Table>(table: T): ColumnList<FieldOf<T>> {
  return columnList(table, Object.keys(getTableColumns(table)) as FieldOf<T>[])
}

/** A column's SQL name, for the few references a statement spells out (`where`, a constant `set`). */
export function columnName(column: Column): SQL {
  return sql`${sql.identifier(column.name)}`
}

/**
 * Rows as one JSON parameter, as a subquery `v`. The LIMIT is the exact row count: without it the planner
 * guesses 100 rows for any jsonb_to_recordset and joins an update by hash over a sequential scan of the
 * whole table, a cost that grows with the ledger instead of with the batch.
 */
export function recordset(rows: object[], columns: string): SQL {
  return sql`(select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${sql.raw(columns)})
    limit ${sql.raw(String(rows.length))}) as v`
}
