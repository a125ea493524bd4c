/**
 * @module Opens the ledger: PGlite (a directory under `dataDir`, or in memory) by default, PostgreSQL when
 * a `databaseUrl` is given. Either way the same drizzle-kit migrations in `drizzle/` are applied first.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { packageRoot } from '../package-root.ts'
import { createLedgerStore, type Ledger } from './ledger-store.ts'

// Found from the package root, so the compiled server (dist/server/) finds them too.
export const MIGRATIONS_FOLDER = join(packageRoot(import.meta.url), 'drizzle')

export interface OpenLedgerOptions {
  /** `postgres://...`: use PostgreSQL. Otherwise PGlite. */
  databaseUrl?: string | undefined
  /** PGlite keeps its files in `<dataDir>/ledger`. */
  dataDir?: string | undefined
  /** PGlite in memory (tests, benchmarks): nothing is written to disk. */
  inMemory?: boolean
  /**
   * PostgreSQL schema to keep the tables in (created when missing). Tests and benchmarks use one per run
   * so they never touch a real ledger; production leaves it to the connection's `search_path`.
   */
  schema?: string | undefined
  /** Drop `schema` with everything in it on close: for the throwaway schemas of tests and benchmarks. */
  dropSchemaOnClose?: boolean
  /** PostgreSQL pool size. */
  maxConnections?: number
}

export type LedgerDb = PgDatabase<PgQueryResultHKT>

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/
// Any constant works: it only serializes migrations of replicas starting together.
const MIGRATION_LOCK = 0x6f_77_6c_67

export async function openLedger(options: OpenLedgerOptions = {}): Promise<Ledger> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options)
  return openPglite(options)
}

async function openPglite(options: OpenLedgerOptions): Promise<Ledger> {
  let dir: string | undefined
  if (!options.inMemory) {
    dir = join(options.dataDir ?? './data', 'ledger')
    mkdirSync(dir, { recursive: true })
  }
  const client = new PGlite(dir)
  await client.waitReady
  const db = drizzlePglite({ client })
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER })
  return createLedgerStore(db as unknown as LedgerDb, {
    driver: 'pglite',
    close: () => client.close(),
  })
}

async function openPostgres(databaseUrl: string, options: OpenLedgerOptions): Promise<Ledger> {
  const schema = options.schema
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`ledger schema "${schema}" must be a lower-case SQL identifier (a-z, 0-9, _)`)
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const client = await pool.connect()
  try {
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await migrateNodePg(drizzleNodePg({ client }), {
        migrationsFolder: MIGRATIONS_FOLDER,
        ...(schema ? { migrationsSchema: schema } : {}),
      })
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } catch (error) {
    client.release()
    await pool.end()
    throw error
  }
  client.release()
  const db = drizzleNodePg({ client: pool })
  return createLedgerStore(db as unknown as LedgerDb, {
    driver: 'postgres',
    close: async () => {
      if (schema && options.dropSchemaOnClose) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await pool.end()
    },
  })
}
