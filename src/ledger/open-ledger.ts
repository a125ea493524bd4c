/**
 * @module Opens the ledger: PGlite (a directory under `dataDir`, or in memory) by default, PostgreSQL when
 * a `databaseUrl` is given. Either way the same drizzle-kit migrations in `drizzle/` are applied first, and
 * every call after that runs under `timeoutMs`. A PGlite ledger on disk opens on its first call (`lazy`):
 * PGlite costs about 110 MB resident once open and about 700 MB while it creates a new database (8-10 s),
 * which a BFF whose second look is never used should not pay at start.
 */
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../package-root.ts'
import { systemTimers, type Timers } from '../timers.ts'
import type { LedgerDb } from './ledger-db.ts'
import { LedgerError, toLedgerError } from './ledger-error.ts'
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
  /**
   * Bound on every call (connect, statement, a create's whole wait); `LEDGER_TIMEOUT_MS`, 2 s by default. A
   * partitioned database otherwise holds requests for as long as TCP takes to give up.
   */
  timeoutMs?: number
  /** The clock of those timeouts; tests inject fake ones. */
  timers?: Timers
  /**
   * PGlite on disk only: open the database on the ledger's first call instead of now (default `true`). The
   * data directory is still made (owner-only) now, so a directory that cannot be made fails at start.
   */
  lazy?: boolean
}

const DEFAULT_LEDGER_TIMEOUT_MS = 2_000

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/
// Any constant works: it only serializes migrations of replicas starting together.
const MIGRATION_LOCK = 0x6f_77_6c_67

/**
 * PGlite's own start parameters plus smaller buffers: its default 128 MB of shared buffers are touched as
 * the database is used and count in full against the process, for a ledger whose working set is a few MB
 * (measured on reopening a ledger directory: +248 MB resident with the default, +112 MB with 4 MB).
 */
const PGLITE_START_PARAMS = [
  ...['--single', '-F', '-O', '-j', '-c', 'search_path=public', '-c', 'exit_on_error=false'],
  ...['-c', 'log_checkpoints=false', '-c', 'max_worker_processes=0', '-c', 'max_parallel_workers=0'],
  ...['-c', 'max_parallel_workers_per_gather=0', '-c', 'io_method=sync'],
  ...['-c', 'max_parallel_maintenance_workers=0', '-c', 'shared_buffers=4MB'],
]

export async function openLedger(options: OpenLedgerOptions = {}): Promise<Ledger> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options)
  if (options.inMemory) return openPglite(options)
  if (options.lazy === false) return openPglite(options, pgliteDirectory(options))
  const dir = pgliteDirectory(options)
  return lazyLedger(() => openPglite(options, dir), {
    timeoutMs: bounds(options).timeoutMs,
    exists: () => existsSync(join(dir, 'PG_VERSION')),
  })
}

/** `<dataDir>/ledger`, made owner-only. */
function pgliteDirectory(options: OpenLedgerOptions): string {
  const dir = join(options.dataDir ?? './data', 'ledger')
  // Owner only: the ledger holds partner click URLs, bids and partner lead ids. chmod as well, for a
  // directory made before (mkdir's mode applies only to what it creates, and through the umask).
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  return dir
}

/**
 * A ledger that opens on its first call: every method waits for the one open, then runs. Until then
 * `ping` (readiness) answers from what is known (the directory was made; the last open, if any, failed),
 * `close` has nothing to close, and `db` is not there yet. A failed open is retried by the next call. The
 * marketplace's periodic sweep of unsettled leads opens it only when a database exists (leads of an earlier
 * run may wait in it); in a directory with none there is no lead to close.
 */
function lazyLedger(
  open: () => Promise<Ledger>,
  { timeoutMs, exists }: { timeoutMs: number; exists: () => boolean },
): Ledger {
  let opening: Promise<Ledger> | undefined
  let opened: Ledger | undefined
  let failure: LedgerError | undefined
  let closed = false
  const ledger = (operation: string): Promise<Ledger> => {
    if (closed) return Promise.reject(new LedgerError(operation, 'closed', false))
    opening ??= open().then(
      (value) => {
        opened = value
        failure = undefined
        return value
      },
      (error: unknown) => {
        opening = undefined
        failure = toLedgerError('open', error)
        throw failure
      },
    )
    return opening
  }
  const before: Partial<Record<PropertyKey, unknown>> = {
    driver: 'pglite',
    timeoutMs,
    async ping() {
      if (failure) throw failure
    },
    async close() {
      closed = true
      const value = await opening?.catch(() => undefined)
      await value?.close()
    },
  }
  return new Proxy({} as Ledger, {
    get(_target, key) {
      if (opened && key !== 'close') return Reflect.get(opened, key)
      if (key === 'db')
        throw new Error('ledger.db: the PGlite ledger opens on its first call; await one first')
      if (key in before) return before[key]
      if (key === 'closeUnsettled' && !opening && !exists()) return async () => 0
      // Not a thenable (`await openLedger()` must not open it), and no symbol-keyed protocol either.
      if (key === 'then' || typeof key === 'symbol') return undefined
      const name = String(key)
      return async (...args: unknown[]) => {
        const value = (await ledger(name)) as unknown as Record<string, (...a: unknown[]) => unknown>
        return value[name]?.(...args)
      }
    },
  })
}

/**
 * Creates a new PGlite database in `dir` in a child process. PGlite creates one by running initdb in two
 * more WebAssembly instances, about 600 MB resident for 8-10 s, of which a long-lived process keeps about
 * 400 MB for good after (measured: 485 MB after 1,000 leads on a fresh directory); a child gives it all
 * back when it exits, and this process then opens the database as it would any existing one.
 */
function createPgliteDatabase(dir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite')
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)})
const client = new PGlite(${JSON.stringify(dir)})
await client.waitReady
await client.close()`
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, _stdout, stderr) => {
      if (!error) return resolve()
      reject(
        new Error(
          `creating the PGlite ledger in ${dir} failed: ${stderr.trim().slice(-500) || error.message}`,
        ),
      )
    })
  })
}

async function openPglite(options: OpenLedgerOptions, dir?: string): Promise<Ledger> {
  // Imported here: loading PGlite takes about 1 s, which a server whose second look is never used, or
  // runs on PostgreSQL, should not wait for at start.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ])
  if (dir !== undefined && !existsSync(join(dir, 'PG_VERSION'))) await createPgliteDatabase(dir)
  const client = new PGlite(dir, { startParams: PGLITE_START_PARAMS })
  await client.waitReady
  const db = drizzlePglite({ client })
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER })
  return createLedgerStore(db as unknown as LedgerDb, {
    driver: 'pglite',
    close: () => client.close(),
    ...bounds(options),
  })
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
