/**
 * @module Opens the ledger: PGlite (a directory under `dataDir`, or in memory) by default, PostgreSQL when
 * a `databaseUrl` is given. Either way the same drizzle-kit migrations in `drizzle/` are applied first, and
 * every call after that runs under `timeoutMs`. A new PGlite database on disk is unpacked from a template made
 * at build time (`pglite-template.ts`, `pglite-directory.ts`): about 1 s, where initdb took 8-14 s and 900 MB.
 * The server opens it in the background (`background`), so its port binds at once and `/readyz` says ready
 * only once the ledger is open.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../http/package-root.ts'
import { systemTimers, type Timers } from '../http/timers.ts'
import type { LedgerDb } from './ledger-db.ts'
import type { LedgerError } from './ledger-error.ts'
import { createLedgerStore, type Ledger } from './ledger-store.ts'
import { openInBackground } from './open-in-background.ts'
import { ensurePgliteDirectory } from './pglite-directory.ts'
import { pgliteTemplate } from './pglite-template.ts'
import { openPgliteThread, type PgliteThreadClient } from './pglite-thread.ts'

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
  /**
   * Bound on every call (connect, statement, a create's whole wait); `LEDGER_TIMEOUT_MS`, 2 s by default. A
   * partitioned database otherwise holds requests for as long as TCP takes to give up.
   */
  timeoutMs?: number
  /** The clock of those timeouts; tests inject fake ones. */
  timers?: Timers
  /**
   * PGlite on disk only: resolve at once with a ledger that opens in the background (the server, so its
   * port binds at once), instead of once it is open (default). Until it is open `ping` fails saying so and
   * calls wait for it at most `timeoutMs`; a failed open is retried with backoff. `dataDir` is still made
   * now, so a directory that cannot be made fails at once.
   */
  background?: boolean
  /** With `background`: told of each failed open and when it is retried (the server logs it). */
  onOpenError?: (error: LedgerError, retryInMs: number) => void
  /**
   * PGlite only: `worker` runs it in a thread of its own (`pglite-thread.ts`), so its synchronous
   * WebAssembly never holds the event loop (the server, in Node); `main` (default) runs it in the calling
   * thread, where a statement settles within the caller's microtasks (tests on a fake clock, scripts).
   */
  thread?: 'worker' | 'main'
}

const DEFAULT_LEDGER_TIMEOUT_MS = 2_000

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/
// Any constant works: it only serializes migrations of replicas starting together.
const MIGRATION_LOCK = 0x6f_77_6c_67

/**
 * Added to PGlite's own start parameters (`PGlite.defaultStartParams`): smaller shared memory. Its default
 * 128 MB of shared buffers are touched as the database is used and count in full against the process, for a
 * ledger whose working set is a few MB (measured on reopening a ledger directory: +248 MB resident with the
 * default, +112 MB with 4 MB). PGlite is one session in PostgreSQL's single-user mode, so the per-connection
 * shared structures sized for 100 connections are sized for 5 (13 MB of the WebAssembly memory resident
 * instead of 18 MB, measured 2026-11-26).
 */
const PGLITE_MEMORY_PARAMS = ['-c', 'shared_buffers=4MB', '-c', 'max_connections=5']

export async function openLedger(options: OpenLedgerOptions = {}): Promise<Ledger> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options)
  if (options.inMemory) return openPglite(options)
  const dataDir = options.dataDir ?? './data'
  if (!options.background) return openPgliteOnDisk(dataDir, options)
  mkdirSync(dataDir, { recursive: true })
  return openInBackground(() => openPgliteOnDisk(dataDir, options), {
    driver: 'pglite',
    ...bounds(options),
    onOpenError: options.onOpenError,
  })
}

async function openPgliteOnDisk(dataDir: string, options: OpenLedgerOptions): Promise<Ledger> {
  const dir = await ensurePgliteDirectory(dataDir, () => pgliteTemplate(MIGRATIONS_FOLDER))
  return openPglite(options, dir)
}

async function openPglite(options: OpenLedgerOptions, dir?: string): Promise<Ledger> {
  // Imported here: a server on PostgreSQL should not load PGlite at all.
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ])
  const client = await openPgliteClient(options, dir)
  // drizzle's PGlite driver calls only `query` and `transaction` on its client; the thread's client has both.
  const db = drizzlePglite({ client: client as never })
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER })
  } catch (error) {
    // A failed open is retried: this attempt's instance must not stay behind holding the directory.
    await client.close().catch(() => {})
    throw error
  }
  return createLedgerStore(db as unknown as LedgerDb, {
    driver: 'pglite',
    close: () => client.close(),
    ...bounds(options),
  })
}

async function openPgliteClient(
  options: OpenLedgerOptions,
  dir: string | undefined,
): Promise<PgliteThreadClient | import('@electric-sql/pglite').PGlite> {
  if (options.thread === 'worker' && !otherRuntime()) {
    return openPgliteThread({ dataDir: dir, startParams: PGLITE_MEMORY_PARAMS })
  }
  const { PGlite } = await import('@electric-sql/pglite')
  // Options as the one argument: `new PGlite(undefined, options)` (in memory) ignores its options.
  const client = new PGlite({
    dataDir: dir,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_PARAMS],
  })
  try {
    await client.waitReady
  } catch (error) {
    await client.close().catch(() => {})
    throw error
  }
  return client
}

/**
 * Bun and Deno run PGlite in the calling thread, as before issue 43: their `node:worker_threads` are
 * compatibility layers the thread's evaluated script is not tested on (docs/running-the-bff.md).
 */
function otherRuntime(): boolean {
  return 'Bun' in globalThis || 'Deno' in globalThis
}

async function openPostgres(databaseUrl: string, options: OpenLedgerOptions): Promise<Ledger> {
  const schema = options.schema
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`ledger schema "${schema}" must be a lower-case SQL identifier (a-z, 0-9, _)`)
  }
  const [{ default: pg }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ])
  const { timeoutMs } = bounds(options)
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    // Each bound on its own side: the client gives up connecting and waiting, the server cancels the
    // statement. A client that timed out is destroyed by the pool, never handed out again.
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  // Migrations on a connection of their own, without the statement bounds: waiting for another replica's
  // migration lock, or a long migration, is expected at start.
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: timeoutMs,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  client.on('error', () => {})
  try {
    await client.connect()
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
    await client.end().catch(() => {})
    await pool.end()
    throw error
  }
  await client.end()
  const db = drizzleNodePg({ client: pool })
  return createLedgerStore(db as unknown as LedgerDb, {
    driver: 'postgres',
    ...bounds(options),
    close: async () => {
      if (schema && options.dropSchemaOnClose) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await pool.end()
    },
  })
}

function bounds(options: OpenLedgerOptions): { timeoutMs: number; timers: Timers } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LEDGER_TIMEOUT_MS
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new Error(`ledger timeoutMs must be a positive whole number of ms (got ${timeoutMs})`)
  }
  return { timeoutMs, timers: options.timers ?? systemTimers }
}
