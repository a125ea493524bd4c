/**
 * @module The drizzle handle every ledger query runs on, whichever driver opened it (PGlite or
 * node-postgres). Its own module so the store and its queries can name it without importing the opener,
 * which imports them.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'

export type LedgerDb = PgDatabase<PgQueryResultHKT>
