/**
 * @module The embedded ledger's PGlite in a worker thread of its own (issue 43: no reply stalls the loop).
 * PGlite is PostgreSQL compiled to WebAssembly and runs every statement synchronously on the thread that owns
 * it: in the server's thread, a lead's offers (up to 256 KB a partner) or a burst of search events held the
 * event loop 10-100 ms per write, and every visitor of the replica waited. Here the thread owns PGlite and
 * nothing else (no drizzle: a second copy of it costs the process about 13 MB), and the server's thread holds
 * a client with what drizzle's PGlite driver calls (`query`, `transaction`), so the statements and their
 * WebAssembly run beside the event loop; only the parameters and rows cross (a copy).
 *
 * A failed open ends the thread and fails `openPgliteThread`. A thread that dies later (out of memory, a
 * WebAssembly trap) fails its calls in flight and every call after it with `ECONNRESET`, as a PostgreSQL
 * server that went away does: readiness reports the ledger down and the lead route answers 503 with
 * Retry-After. It is not reopened behind the operator's back: the process is restarted.
 */
import { Worker } from 'node:worker_threads'

interface QueryResult {
  rows: unknown[]
  fields: { name: string; dataTypeID: number }[]
  affectedRows?: number
}

type Query = (
  sql: string,
  params?: unknown[],
  options?: { rowMode?: 'array' | 'object' },
) => Promise<QueryResult>

/** What drizzle-orm's PGlite session calls on its client (`drizzle({ client })`), and `close`. */
export interface PgliteThreadClient {
  query: Query
  /**
   * PGlite is one session: while `run` holds a transaction, every other call waits for it to end (the
   * migrations use one; the ledger's own calls are single statements).
   */
  transaction<T>(run: (tx: { query: Query }) => Promise<T>): Promise<T>
  /** Closes PGlite (its files flushed) and ends the thread. */
  close(): Promise<void>
}

export interface PgliteThreadOptions {
  /** PGlite's data directory; in memory when absent. */
  dataDir?: string | undefined
  startParams: readonly string[]
}

type Reply =
  | { id: number; result: QueryResult }
  | { id: number; error: { message: string; code?: string; name?: string } }
  | { ready: true }
  | { openError: string }

/**
 * The thread's script, evaluated from a string, since a worker cannot load this project's TypeScript under tsx
 * or vitest; written with dynamic `import()` only, so it runs whether the process evaluates strings as
 * CommonJS or as modules (`--input-type=module`). PGlite is resolved in this module (`import.meta.resolve`),
 * so the thread finds it wherever the server runs. Timestamps, dates and intervals stay strings (and their
 * arrays), as drizzle's PGlite driver asks of PGlite.
 */
const SCRIPT = `import('node:worker_threads').then(async ({ parentPort, workerData }) => {
  let client
  try {
    const { PGlite, types } = await import(workerData.pglite)
    const keep = (value) => value
    const parsers = {}
    for (const oid of [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182]) {
      parsers[oid] = keep
    }
    client = new PGlite({ dataDir: workerData.dataDir, startParams: [...PGlite.defaultStartParams, ...workerData.startParams] })
    await client.waitReady
    parentPort.on('message', async (message) => {
      if (message.close) {
        await client.close().catch(() => {})
        process.exit(0)
      }
      try {
        const result = await client.query(message.sql, message.params, { rowMode: message.rowMode, parsers })
        parentPort.postMessage({ id: message.id, result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows } })
      } catch (error) {
        parentPort.postMessage({ id: message.id, error: { message: String(error && error.message), code: error && error.code, name: error && error.name } })
      }
    })
    parentPort.postMessage({ ready: true })
  } catch (error) {
    if (client) await client.close().catch(() => {})
    parentPort.postMessage({ openError: String((error && error.stack) || error).slice(0, 2000) })
  }
})
`

/** Starts the thread and opens the database in it; resolves once it answers. */
export function openPgliteThread(options: PgliteThreadOptions): Promise<PgliteThreadClient> {
  const worker = new Worker(SCRIPT, {
    eval: true,
    workerData: {
      pglite: import.meta.resolve('@electric-sql/pglite'),
      dataDir: options.dataDir,
      startParams: [...options.startParams],
    },
  })
  return new Promise((resolve, reject) => {
    const opening = (message: Reply) => {
      if ('openError' in message) {
        worker.off('message', opening)
        void worker.terminate()
        reject(new Error(`opening the PGlite ledger failed: ${message.openError}`))
      } else if ('ready' in message) {
        worker.off('message', opening)
        resolve(threadClient(worker))
      }
    }
    worker.on('message', opening)
    worker.once('error', (error) => reject(new Error(`opening the PGlite ledger failed: ${error.message}`)))
    worker.once('exit', (code) =>
      reject(new Error(`opening the PGlite ledger failed: its thread exited (${code})`)),
    )
  })
}

function threadClient(worker: Worker): PgliteThreadClient {
  const pending = new Map<number, { resolve: (value: QueryResult) => void; reject: (error: Error) => void }>()
  let nextId = 1
  let gone: Error | undefined
  let closing: Promise<void> | undefined
  /** Settles when the transactions holding the session end; calls from outside them wait on it. */
  let held: Promise<void> = Promise.resolve()
  /** Transactions open or waiting: with none, a call goes straight to the thread. */
  let holders = 0
  // Held open only while a call waits on it: an idle ledger never keeps the process alive.
  worker.unref()
  worker.on('message', (message: Reply) => {
    if (!('id' in message)) return
    const call = pending.get(message.id)
    if (!call) return
    pending.delete(message.id)
    if (pending.size === 0) worker.unref()
    if ('result' in message) call.resolve(message.result)
    else call.reject(Object.assign(new Error(message.error.message), message.error))
  })
  const fail = (why: string) => {
    // As a PostgreSQL connection that dropped: a transient failure every caller already knows how to meet.
    gone ??= Object.assign(new Error(`the PGlite ledger thread ${why}`), { code: 'ECONNRESET' })
    for (const call of pending.values()) call.reject(gone)
    pending.clear()
  }
  worker.on('error', (error) => fail(`failed: ${error.message}`))
  worker.on('exit', (code) => fail(`exited (${code})`))

  const send: Query = (sql, params = [], options = {}) => {
    if (gone) return Promise.reject(gone)
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      if (pending.size === 1) worker.ref()
      worker.postMessage({ id, sql, params, rowMode: options.rowMode ?? 'object' })
    })
  }

  return {
    query: (sql, params, options) =>
      holders === 0 ? send(sql, params, options) : held.then(() => send(sql, params, options)),
    async transaction(run) {
      const before = held
      let end!: () => void
      const mine = new Promise<void>((resolve) => {
        end = resolve
      })
      held = before.then(() => mine)
      holders++
      await before
      try {
        await send('BEGIN')
        try {
          const result = await run({ query: send })
          await send('COMMIT')
          return result
        } catch (error) {
          await send('ROLLBACK').catch(() => {})
          throw error
        }
      } finally {
        holders--
        end()
      }
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (gone) return resolve()
        worker.once('exit', () => resolve())
        worker.ref()
        worker.postMessage({ close: true })
      })
      return closing
    },
  }
}
