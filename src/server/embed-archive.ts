/**
 * @module The BFF's copy of every script-tag bundle it has served, under `DATA_DIR/embed/`, so a publisher
 * page pinned to a bundle's hashed URL with SRI keeps working after an upgrade replaced that bundle in
 * `dist/embed/` (every build empties it, and a Docker image is built from a clean tree). Each bundle is its
 * file, its brotli and gzip copies and a record `<file>.meta.json` (version, integrity, when it was archived
 * and when a newer build superseded it). A superseded bundle is served for `retentionDays`, then removed.
 * One record per bundle rather than one index, so replicas sharing the directory never overwrite each
 * other's; every lookup reads the disk, so what one process archives the others serve. A bundle's
 * loan-application chunk (src/embed/application-host.ts) is kept, served and removed with it: a pinned page
 * that shows the application loads the chunk its own bundle names. docs/upgrading.md.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod/mini'
import { APPLICATION_NAME } from '../embed/application-host.ts'
import { BUNDLE_NAME, type EmbedBundle, embedLine } from '../embed/manifest.ts'
import { type Clock, systemTimers } from '../http/timers.ts'

const DAY_MS = 86_400_000
const RECORD_SUFFIX = '.meta.json'
/** The bundle and the brotli and gzip copies the build writes beside it (scripts/precompress.ts). */
const COPIES = ['', '.br', '.gz'] as const

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
}

export interface EmbedArchive {
  readonly dir: string
  readonly retentionDays: number
  /**
   * Keeps `current` (from `sourceDir`, with its encoded copies), marks every other bundle superseded from
   * now, and removes those superseded longer than the retention period.
   */
  keep(current: EmbedBundle, sourceDir: string): void
  /** A bundle, or a bundle's application chunk, by file name, while it is within its retention period. */
  find(file: string): ArchivedBundle | undefined
  /** The newest bundle of a line (`v0.1`, `v1`) still within its retention period. */
  latestOf(line: string): ArchivedBundle | undefined
}

/** Whether a record is past its retention period at `now`. */
function expired(record: ArchivedBundle, retentionDays: number, now: number): boolean {
  return record.supersededAt !== undefined && now - record.supersededAt > retentionDays * DAY_MS
}

/** Writes through a temporary name, so a reader in another process never sees half a file. */
function writeAtomically(path: string, write: (temporary: string) => void): void {
  const temporary = `${path}.tmp-${process.pid}`
  write(temporary)
  renameSync(temporary, path)
}

export function createEmbedArchive({
  dir,
  retentionDays,
  timers = systemTimers,
}: EmbedArchiveOptions): EmbedArchive {
  const recordPath = (file: string) => join(dir, `${file}${RECORD_SUFFIX}`)
  const read = (file: string): ArchivedBundle | undefined => {
    if (!BUNDLE_NAME.test(file)) return undefined
    try {
      const parsed = archivedBundleSchema.safeParse(JSON.parse(readFileSync(recordPath(file), 'utf8')))
      return parsed.success && parsed.data.file === file ? parsed.data : undefined
    } catch {
      return undefined
    }
  }
  const records = (): ArchivedBundle[] =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith(RECORD_SUFFIX))
          .flatMap((name) => read(name.slice(0, -RECORD_SUFFIX.length)) ?? [])
      : []
  const writeRecord = (record: ArchivedBundle) =>
    writeAtomically(recordPath(record.file), (temporary) =>
      writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`),
    )
  const copyIn = (file: string, sourceDir: string) => {
    for (const suffix of COPIES) {
      const source = join(sourceDir, `${file}${suffix}`)
      if (existsSync(source)) {
        writeAtomically(join(dir, `${file}${suffix}`), (temporary) => copyFileSync(source, temporary))
      }
    }
  }
  const removeFiles = (file: string) => {
    for (const suffix of COPIES) rmSync(join(dir, `${file}${suffix}`), { force: true })
  }
  const remove = (record: ArchivedBundle, kept: readonly ArchivedBundle[]) => {
    // The record first: a bundle without its record is never served, one with a record but no file would be.
    rmSync(recordPath(record.file), { force: true })
    removeFiles(record.file)
    // Two builds that differ only outside the application share its chunk: it goes with the last of them.
    const chunk = record.application?.file
    if (chunk && !kept.some((other) => other.application?.file === chunk)) removeFiles(chunk)
  }

  return {
    dir,
    retentionDays,
    keep(current, sourceDir) {
      mkdirSync(dir, { recursive: true })
      const at = timers.now()
      const known = read(current.file)
      if (!known || known.integrity !== current.integrity) {
        copyIn(current.file, sourceDir)
        if (current.application) copyIn(current.application.file, sourceDir)
        const { version, file, integrity, application } = current
        writeRecord({ version, file, integrity, archivedAt: at, ...(application && { application }) })
      } else if (known.supersededAt !== undefined) {
        // Rolled back to it: current again, so no longer counting down.
        const { supersededAt: _, ...again } = known
        writeRecord(again)
      }
      const all = records()
      const expiring = all.filter((r) => r.file !== current.file && expired(r, retentionDays, at))
      const kept = all.filter((r) => !expiring.includes(r))
      for (const record of expiring) remove(record, kept)
      for (const record of kept) {
        if (record.file !== current.file && record.supersededAt === undefined) {
          writeRecord({ ...record, supersededAt: at })
        }
      }
    },
    find(file) {
      const now = timers.now()
      const record = APPLICATION_NAME.test(file)
        ? records().find((r) => r.application?.file === file && !expired(r, retentionDays, now))
        : read(file)
      return record && !expired(record, retentionDays, now) && existsSync(join(dir, file))
        ? record
        : undefined
    },
    latestOf(line) {
      const at = timers.now()
      return records()
        .filter((record) => embedLine(record.version) === line && !expired(record, retentionDays, at))
        .filter((record) => existsSync(join(dir, record.file)))
        .sort(
          (a, b) =>
            (b.supersededAt ?? Number.POSITIVE_INFINITY) - (a.supersededAt ?? Number.POSITIVE_INFINITY),
        )[0]
    },
  }
}
