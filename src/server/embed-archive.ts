/**
 * @module The BFF's copy of every script-tag bundle it has served, under `DATA_DIR/embed/`, so a publisher
 * page pinned to a bundle's hashed URL with SRI keeps working after an upgrade replaced that bundle in
 * `dist/embed/` (every build empties it, and a Docker image is built from a clean tree). Each bundle is its
 * file, its brotli and gzip copies and a record `<file>.meta.json` (version, integrity, when it was archived
 * and when a newer build superseded it). A superseded bundle is served for `retentionDays`, then removed.
 * One record per bundle rather than one index, so replicas sharing the directory never overwrite each
 * other's; every lookup reads the disk, so what one process archives the others serve. The version is in
 * each record's name, so a line's lookup reads only that line's records. Writes go through a temporary
 * name unique across hosts (replicas in containers are all PID 1), then an atomic rename. No archived
 * file is served before its bytes (and its encoded copies' decoded bytes) match the recorded integrity. A
 * bundle's loan-application chunk (src/embed/application-host.ts) is kept, served and removed with it: a
 * pinned page that shows the application loads the chunk its own bundle names. docs/upgrading.md.
 */
import { createHash, randomUUID } from 'node:crypto'
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliDecompress, gunzip } from 'node:zlib'
import { z } from 'zod/mini'
import { APPLICATION_NAME } from '../embed/application-host.ts'
import { BUNDLE_NAME, type EmbedBundle, embedLine } from '../embed/manifest.ts'
import { type Clock, systemTimers } from '../http/timers.ts'
import { compareVersions } from './compare-versions.ts'

const DAY_MS = 86_400_000
const RECORD_SUFFIX = '.meta.json'
/** The bundle and the brotli and gzip copies the build writes beside it (scripts/precompress.ts), decoded. */
const COPIES = [
  ['', async (bytes: Buffer) => bytes],
  ['.br', promisify(brotliDecompress)],
  ['.gz', promisify(gunzip)],
] as const
/** The version in a bundle's or chunk's name: `offer-widget[-application].<version>-<hash>.js`. */
const VERSION_IN_NAME = /^offer-widget(?:-application)?\.(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)-[0-9a-f]{8,}\.js$/

const archivedBundleSchema = z.object({
  version: z.string(),
  file: z.string().check(z.regex(BUNDLE_NAME)),
  integrity: z.string().check(z.startsWith('sha384-')),
  /** Epoch ms when this BFF first served it. */
  archivedAt: z.number(),
  /** Epoch ms when a newer build replaced it; absent while it is the current one. */
  supersededAt: z.optional(z.number()),
  /** The bundle's loan-application chunk, kept beside it. */
  application: z.optional(
    z.object({ file: z.string().check(z.regex(APPLICATION_NAME)), integrity: z.string() }),
  ),
})

type ArchivedBundle = z.infer<typeof archivedBundleSchema>

export interface EmbedArchiveOptions {
  /** The archive's folder (`DATA_DIR/embed`). */
  dir: string
  /** How long a superseded bundle stays servable. */
  retentionDays: number
  /** The clock; `systemTimers` by default. */
  timers?: Clock
  /** Where an archived file that fails its integrity check is reported; `console.warn` by default. */
  warn?: (message: string) => void
}

export interface EmbedArchive {
  readonly dir: string
  readonly retentionDays: number
  /**
   * Keeps `current` (from `sourceDir`, with its encoded copies), marks every other bundle superseded from
   * now, and removes those superseded longer than the retention period. Rejects, naming the folder and the
   * fix, when the folder cannot be written (full, read-only); the archive is then degraded until a keep works.
   */
  keep(current: EmbedBundle, sourceDir: string): Promise<void>
  /** Why the last keep failed, while the archive cannot be written; `undefined` when it works. */
  degraded(): string | undefined
  /** A bundle, or a bundle's application chunk, by file name, while it is within its retention period. */
  find(file: string): Promise<ArchivedBundle | undefined>
  /** The highest version of a line (`v0.1`, `v1`) still within its retention period. */
  latestOf(line: string): Promise<ArchivedBundle | undefined>
}

/** Whether a record is past its retention period at `now`. */
function expired(record: ArchivedBundle, retentionDays: number, now: number): boolean {
  return record.supersededAt !== undefined && now - record.supersededAt > retentionDays * DAY_MS
}

/** Highest version first; of one version, the current build, then the one superseded last. */
function newestFirst(a: ArchivedBundle, b: ArchivedBundle): number {
  return (
    compareVersions(b.version, a.version) ||
    (b.supersededAt ?? Number.POSITIVE_INFINITY) - (a.supersededAt ?? Number.POSITIVE_INFINITY)
  )
}

/**
 * Writes through a temporary name, so a reader in another process never sees half a file. The name is
 * unique across hosts: two replicas that are both PID 1 would otherwise write, and rename, each other's.
 */
async function writeAtomically(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}-${randomUUID()}`
  try {
    await write(temporary)
    await rename(temporary, path)
  } catch (error) {
    // A full disk leaves part of a file: not ours to keep.
    await rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false
}

function sha384(bytes: Buffer): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`
}

const recordPath = (dir: string, file: string) => join(dir, `${file}${RECORD_SUFFIX}`)
const versionInName = (file: string) => VERSION_IN_NAME.exec(file)?.[1]

/** A record, if it is one: the right shape, for this name, with the version its name says. */
async function readRecord(dir: string, file: string): Promise<ArchivedBundle | undefined> {
  if (!BUNDLE_NAME.test(file)) return undefined
  try {
    const parsed = archivedBundleSchema.safeParse(JSON.parse(await readFile(recordPath(dir, file), 'utf8')))
    const valid = parsed.success && parsed.data.file === file
    return valid && parsed.data.version === versionInName(file) ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** The records of the bundles whose names pass `select`: the others are listed, not read. */
async function readRecords(
  dir: string,
  select: (file: string) => boolean = () => true,
): Promise<ArchivedBundle[]> {
  const names = await readdir(dir).catch(() => [])
  const files = names
    .filter((name) => name.endsWith(RECORD_SUFFIX))
    .map((name) => name.slice(0, -RECORD_SUFFIX.length))
    .filter(select)
  return (await Promise.all(files.map((file) => readRecord(dir, file)))).filter((r) => r !== undefined)
}

function writeRecord(dir: string, record: ArchivedBundle): Promise<void> {
  return writeAtomically(recordPath(dir, record.file), (temporary) =>
    writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`),
  )
}

async function copyIn(dir: string, file: string, sourceDir: string): Promise<void> {
  // Never a record of a bundle whose bytes are not here (a rebuild emptied the folder first).
  if (!(await exists(join(sourceDir, file)))) throw new Error(`${join(sourceDir, file)} is gone`)
  for (const [suffix] of COPIES) {
    const source = join(sourceDir, `${file}${suffix}`)
    if (await exists(source)) {
      await writeAtomically(join(dir, `${file}${suffix}`), (temporary) => copyFile(source, temporary))
    }
  }
}

async function removeFiles(dir: string, file: string): Promise<void> {
  for (const [suffix] of COPIES) await rm(join(dir, `${file}${suffix}`), { force: true })
}

async function remove(dir: string, record: ArchivedBundle, kept: readonly ArchivedBundle[]): Promise<void> {
  // The record first: a bundle without its record is never served, one with a record but no file would be.
  await rm(recordPath(dir, record.file), { force: true })
  await removeFiles(dir, record.file)
  // Two builds that differ only outside the application share its chunk: it goes with the last of them.
  const chunk = record.application?.file
  if (chunk && !kept.some((other) => other.application?.file === chunk)) await removeFiles(dir, chunk)
}

/** Archives `current` as of `at`, marks the others superseded and removes those past `retentionDays`. */
async function keepCurrent(
  dir: string,
  retentionDays: number,
  at: number,
  current: EmbedBundle,
  sourceDir: string,
): Promise<void> {
  await mkdir(dir, { recursive: true })
  const known = await readRecord(dir, current.file)
  if (!known || known.integrity !== current.integrity) {
    await copyIn(dir, current.file, sourceDir)
    if (current.application) await copyIn(dir, current.application.file, sourceDir)
    const { version, file, integrity, application } = current
    await writeRecord(dir, { version, file, integrity, archivedAt: at, ...(application && { application }) })
  } else if (known.supersededAt !== undefined) {
    // Rolled back to it: current again, so no longer counting down.
    const { supersededAt: _, ...again } = known
    await writeRecord(dir, again)
  }
  const all = await readRecords(dir)
  const expiring = all.filter((r) => r.file !== current.file && expired(r, retentionDays, at))
  const kept = all.filter((r) => !expiring.includes(r))
  for (const record of expiring) await remove(dir, record, kept)
  for (const record of kept) {
    if (record.file !== current.file && record.supersededAt === undefined) {
      await writeRecord(dir, { ...record, supersededAt: at })
    }
  }
}

/**
 * Whether an archived file and each encoded copy present decode to bytes of its integrity; a mismatch is
 * reported. A file that matched is not hashed again until its size or modification time changes.
 */
function integrityCheck(dir: string, warn: (message: string) => void) {
  const verified = new Set<string>()
  return async function intact(file: string, integrity: string): Promise<boolean> {
    for (const [suffix, decode] of COPIES) {
      const path = join(dir, `${file}${suffix}`)
      const stats = await stat(path).catch(() => undefined)
      if (!stats?.isFile()) {
        if (suffix === '') return false
        continue
      }
      const key = `${path}:${stats.size}:${stats.mtimeMs}:${integrity}`
      if (verified.has(key)) continue
      const actual = await readFile(path)
        .then(decode)
        .then(sha384, () => 'unreadable')
      if (actual !== integrity) {
        warn(
          `offer-widget: archived ${path} does not match its recorded integrity ${integrity} (found ${actual}): not served; a full disk or an interrupted copy truncates a file. Delete ${file}* and ${file}${RECORD_SUFFIX} from ${dir}, or restart the BFF of that build to archive it again`,
        )
        return false
      }
      verified.add(key)
    }
    return true
  }
}

export function createEmbedArchive({
  dir,
  retentionDays,
  timers = systemTimers,
  warn = (message) => console.warn(message),
}: EmbedArchiveOptions): EmbedArchive {
  let problem: string | undefined
  const intact = integrityCheck(dir, warn)
  const servable = (record: ArchivedBundle, now: number) => !expired(record, retentionDays, now)
  return {
    dir,
    retentionDays,
    async keep(current, sourceDir) {
      try {
        await keepCurrent(dir, retentionDays, timers.now(), current, sourceDir)
        problem = undefined
      } catch (error) {
        problem = `offer-widget: could not keep bundle ${current.file} in ${dir} (DATA_DIR/embed): ${String(error)}; the current bundle is still served, but pages pinned to it will get a 404 after the next upgrade: make the directory writable and give it space (the archive is retried at the next start or rebuild)`
        throw new Error(problem)
      }
    },
    degraded: () => problem,
    async find(file) {
      const now = timers.now()
      const version = versionInName(file)
      if (version === undefined) return undefined
      if (APPLICATION_NAME.test(file)) {
        // The chunk has its bundle's version: only that version's records are read.
        const owners = await readRecords(dir, (name) => versionInName(name) === version)
        const owner = owners.find((r) => r.application?.file === file && servable(r, now))
        return owner?.application && (await intact(file, owner.application.integrity)) ? owner : undefined
      }
      const record = await readRecord(dir, file)
      return record && servable(record, now) && (await intact(file, record.integrity)) ? record : undefined
    },
    async latestOf(line) {
      const now = timers.now()
      const candidates = await readRecords(dir, (name) => {
        const version = versionInName(name)
        return version !== undefined && embedLine(version) === line
      })
      // The highest that is whole: a damaged one gives way to the next rather than to a 404.
      for (const record of candidates.filter((r) => servable(r, now)).sort(newestFirst)) {
        if (await intact(record.file, record.integrity)) return record
      }
      return undefined
    },
  }
}
