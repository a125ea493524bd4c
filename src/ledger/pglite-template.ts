/**
 * @module The ready-made PGlite database every new embedded ledger starts from: PostgreSQL's initdb plus the
 * migrations in `drizzle/`, as PGlite's gzipped tarball. `npm run build` writes it beside the compiled server
 * (it ships in the server package and the Docker image), so a first start unpacks about 40 MB of files instead
 * of running initdb on the path a lead waits on (8-14 s, 900 MB resident). Running from source before any
 * build, it is made once per process in a worker thread: a thread dies with its process (a creation child
 * outlived a killed server and wrote into the directory its restart had opened).
 */
import { createReadStream } from 'node:fs'
import { access } from 'node:fs/promises'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { packageRoot } from '../http/package-root.ts'
import type { TemplateBytes } from './pglite-directory.ts'

/** Under `dist/server/`, so the package's `files` and the Dockerfile's `COPY dist/server` carry it. */
export const PGLITE_TEMPLATE_FILE = join(
  packageRoot(import.meta.url),
  'dist',
  'server',
  'ledger',
  'pglite-template.tar.gz',
)

/**
 * Makes the template in a worker thread: PGlite in memory, the migrations, `dumpDataDir('gzip')`. The
 * worker's 800 MB of initdb go back to the system when it ends, and nothing is written to disk.
 */
export function createPgliteTemplate(migrationsFolder: string): Promise<Uint8Array> {
  // A script, not a module file: a worker cannot load TypeScript sources under tsx or vitest; dynamic imports
  // only, so it runs as CommonJS or as a module (`--input-type=module`). The packages
  // are resolved here, from this module, so the worker finds them wherever it runs.
  const modules = {
    pglite: import.meta.resolve('@electric-sql/pglite'),
    drizzle: import.meta.resolve('drizzle-orm/pglite'),
    migrator: import.meta.resolve('drizzle-orm/pglite/migrator'),
  }
  const script = `import('node:worker_threads').then(async ({ parentPort, workerData }) => {
  try {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import(workerData.modules.pglite), import(workerData.modules.drizzle), import(workerData.modules.migrator),
  ])
  const client = new PGlite()
  await client.waitReady
  await migrate(drizzle({ client }), { migrationsFolder: workerData.migrationsFolder })
  const bytes = new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer())
  await client.close()
  parentPort.postMessage(bytes, [bytes.buffer])
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.stack || error) })
  }
})`
  return new Promise((resolve, reject) => {
    let answered = false
    const worker = new Worker(script, { eval: true, workerData: { modules, migrationsFolder } })
    worker.once('message', (message: Uint8Array | { error: string }) => {
      answered = true
      void worker.terminate()
      if (message instanceof Uint8Array) resolve(message)
      else reject(new Error(`making the PGlite ledger template failed: ${message.error.slice(0, 500)}`))
    })
    worker.once('error', (error) => {
      answered = true
      reject(new Error(`making the PGlite ledger template failed: ${error.message}`))
    })
    worker.once('exit', (code) => {
      if (!answered)
        reject(new Error(`making the PGlite ledger template failed: its worker exited (${code})`))
    })
  })
}

let made: Promise<Uint8Array> | undefined

/**
 * The built template, streamed from its file (never held whole), or one made now (once per process; a
 * failure is not kept, so the next open retries). Only a finished template is ever kept, and only in memory.
 */
export async function pgliteTemplate(migrationsFolder: string): Promise<TemplateBytes> {
  try {
    await access(PGLITE_TEMPLATE_FILE)
    return createReadStream(PGLITE_TEMPLATE_FILE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  made ??= createPgliteTemplate(migrationsFolder).catch((error: unknown) => {
    made = undefined
    throw error
  })
  return made
}
