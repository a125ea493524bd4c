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
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, normalize, sep } from 'node:path'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'

const CREATING = /^ledger\.creating-(\d+)-[0-9a-f]+$/

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
  template: () => Promise<Uint8Array>,
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
    renameSync(dir, join(dataDir, `ledger.incomplete-${Date.now()}`))
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
 * Writes a ustar archive's directories and regular files under `dir` (owner-only, as initdb makes them).
 * Names are kept inside `dir`; other entry types do not occur in PGlite's dumps and are refused.
 */
async function unpack(gzipped: Uint8Array, dir: string): Promise<void> {
  const tar = await promisify(gunzip)(gzipped)
  let offset = 0
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512)
    if (header.every((byte) => byte === 0)) break
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
    const body = tar.subarray(offset + 512, offset + 512 + size)
    if (type === '5') await mkdir(target, { recursive: true, mode: 0o700 })
    else if (type === '0') {
      await mkdir(dirname(target), { recursive: true, mode: 0o700 })
      await writeFile(target, body, { mode: 0o600 })
    } else throw new Error(`ledger template: entry ${JSON.stringify(name)} has unsupported type ${type}`)
    offset += 512 + Math.ceil(size / 512) * 512
  }
  if (!isCompleteDatabase(dir)) throw new Error('ledger template: the archive holds no complete database')
}
