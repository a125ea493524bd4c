/**
 * @module The embedded ledger's directory, `<dataDir>/ledger`, made atomically: a new database is unpacked
 * from the template into a sibling `ledger.creating-<pid>-<random>` (owner-only) and renamed into place
 * once whole, so a directory named `ledger` is always a finished database. Leftovers of a creation whose
 * process died are removed; a `ledger` left half-made by earlier versions (which created the database in
 * place) is moved aside, never opened and never deleted. The template is unpacked by Node itself, not by
 * PGlite's `loadDataDir`: that would start a second PostgreSQL instance in this process, which keeps about
 * 90 MB more resident for good (measured: 262 MB idle against 173 MB).
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { type FileHandle, mkdir, open } from 'node:fs/promises'
import { dirname, join, normalize, sep } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { systemTimers } from '../http/timers.ts'

const CREATING = /^ledger\.creating-(\d+)-[0-9a-f]+$/

/** Bytes of the gzipped template: in memory (made in a worker), or read as a stream from the built file. */
export type TemplateBytes = Uint8Array | AsyncIterable<Uint8Array>

// zlib's output chunk: large enough for few writes, small enough to stay out of the allocator's large-block path.
const INFLATE_CHUNK = 64 * 1024

/** What PostgreSQL needs to find a cluster: its version file and its control file (written last by initdb). */
export function isCompleteDatabase(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION')) && existsSync(join(dir, 'global', 'pg_control'))
}

/**
 * `<dataDir>/ledger`, holding a database: the existing one (tightened to owner-only), or a new one made from
 * `template` (a gzipped tarball of a data directory).
 */
export async function ensurePgliteDirectory(
  dataDir: string,
  template: () => Promise<TemplateBytes>,
): Promise<string> {
  const dir = join(dataDir, 'ledger')
  mkdirSync(dataDir, { recursive: true })
  removeAbandonedCreations(dataDir)
  if (isCompleteDatabase(dir)) {
    // Owner only: the ledger holds partner click URLs, bids and partner lead ids. Also for one made before.
    chmodSync(dir, 0o700)
    return dir
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    // Half-made by an earlier version, or not ours: kept for whoever wants to look, out of the way.
    renameSync(dir, join(dataDir, `ledger.incomplete-${systemTimers.now()}`))
  }
  const creating = join(dataDir, `ledger.creating-${process.pid}-${randomBytes(6).toString('hex')}`)
  try {
    await mkdir(creating, { mode: 0o700 })
    await unpack(await template(), creating)
    try {
      // Replaces an empty `ledger` (earlier versions made it at start); fails on a non-empty one.
      renameSync(creating, dir)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Another process sharing this DATA_DIR finished first: use its database.
      if (!(code === 'ENOTEMPTY' || code === 'EEXIST') || !isCompleteDatabase(dir)) throw error
    }
    chmodSync(dir, 0o700)
    return dir
  } finally {
    rmSync(creating, { recursive: true, force: true })
  }
}

/** `ledger.creating-<pid>-*` whose process is gone (or is this one, from an attempt that failed). */
function removeAbandonedCreations(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    const pid = CREATING.exec(name)?.[1]
    if (pid !== undefined && (Number(pid) === process.pid || !isAlive(Number(pid)))) {
      rmSync(join(dataDir, name), { recursive: true, force: true })
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, run by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Writes a ustar archive's directories and regular files under `dir` (owner-only, as initdb makes them),
 * inflating and writing as the bytes arrive: the archive (about 40 MB) is never held whole, which left the
 * process about 45 MB larger for good after a first start (memory the allocator kept once it was freed).
 * Names are kept inside `dir`; other entry types do not occur in PGlite's dumps and are refused.
 */
async function unpack(gzipped: TemplateBytes, dir: string): Promise<void> {
  const source = Readable.from(gzipped instanceof Uint8Array ? [gzipped] : gzipped)
  await pipeline(source, createGunzip({ chunkSize: INFLATE_CHUNK }), (chunks: AsyncIterable<Buffer>) =>
    writeEntries(chunks, dir),
  )
  if (!isCompleteDatabase(dir)) throw new Error('ledger template: the archive holds no complete database')
}

async function writeEntries(chunks: AsyncIterable<Buffer>, dir: string): Promise<void> {
  const header = Buffer.alloc(512)
  let headerFill = 0
  // The entry being written: its open file, the bytes it still expects, then the padding to 512 bytes.
  let file: { name: string; handle: FileHandle | undefined; remaining: number; padding: number } | undefined
  let ended = false
  try {
    for await (const chunk of chunks) {
      let at = 0
      // After the end-of-archive block only padding follows: read, not written.
      while (at < chunk.length && !ended) {
        if (file) {
          if (file.remaining > 0) {
            const take = Math.min(file.remaining, chunk.length - at)
            await file.handle?.write(chunk.subarray(at, at + take))
            file.remaining -= take
            at += take
          } else {
            const skip = Math.min(file.padding, chunk.length - at)
            file.padding -= skip
            at += skip
          }
          if (file.remaining === 0 && file.padding === 0) {
            await file.handle?.close()
            file = undefined
          }
          continue
        }
        const take = Math.min(512 - headerFill, chunk.length - at)
        chunk.copy(header, headerFill, at, at + take)
        headerFill += take
        at += take
        if (headerFill < 512) continue
        headerFill = 0
        if (header.every((byte) => byte === 0)) ended = true
        else file = await startEntry(header, dir)
      }
    }
  } finally {
    await file?.handle?.close()
  }
  if (file && (file.remaining > 0 || file.padding > 0))
    throw new Error(`ledger template: the archive ends inside ${JSON.stringify(file.name)}`)
  if (headerFill > 0) throw new Error('ledger template: the archive ends inside an entry header')
}

/** Makes the directory, or opens the file, an entry's header names; `undefined` when no body follows. */
async function startEntry(header: Buffer, dir: string) {
  const field = (start: number, length: number) => {
    const bytes = header.subarray(start, start + length)
    const end = bytes.indexOf(0)
    return bytes.subarray(0, end === -1 ? length : end).toString('utf8')
  }
  const prefix = field(257, 6) === 'ustar' ? field(345, 155) : ''
  const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100)
  const size = Number.parseInt(field(124, 12).trim() || '0', 8)
  const type = field(156, 1) || '0'
  const target = normalize(join(dir, name))
  if (!(target === dir || target.startsWith(dir + sep))) {
    throw new Error(`ledger template: entry ${JSON.stringify(name)} points outside its directory`)
  }
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new Error(`ledger template: entry ${JSON.stringify(name)} has no readable size`)
  }
  const padding = (512 - (size % 512)) % 512
  if (type === '5') {
    await mkdir(target, { recursive: true, mode: 0o700 })
    return size === 0 ? undefined : { name, handle: undefined, remaining: size, padding }
  }
  if (type !== '0') {
    throw new Error(`ledger template: entry ${JSON.stringify(name)} has unsupported type ${type}`)
  }
  await mkdir(dirname(target), { recursive: true, mode: 0o700 })
  const handle = await open(target, 'w', 0o600)
  if (size > 0) return { name, handle, remaining: size, padding }
  await handle.close()
  return undefined
}
