/**
 * @module The BFF's copy of every script-tag bundle it has served, under `DATA_DIR/embed/`, so a publisher
 * page pinned to a bundle's hashed URL with SRI keeps working after an upgrade replaced that bundle in
 * `dist/embed/` (every build empties it, and a Docker image is built from a clean tree). Each bundle is its
 * file, its brotli and gzip copies and a record `<file>.meta.json` (version, integrity, when it was archived
 * and when a newer build superseded it). A superseded bundle is served for `retentionDays`, then removed.
 * One record per bundle rather than one index, so replicas sharing the directory never overwrite each
 * other's; every lookup reads the disk, so what one process archives the others serve. docs/upgrading.md.
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
  /** A bundle by file name, while it is within its retention period. */
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
  const remove = (file: string) => {
    // The record first: a bundle without its record is never served, one with a record but no file would be.
    rmSync(recordPath(file), { force: true })
    for (const suffix of COPIES) rmSync(join(dir, `${file}${suffix}`), { force: true })
  }

  return {
    dir,
    retentionDays,
    keep(current, sourceDir) {
      mkdirSync(dir, { recursive: true })
      const at = timers.now()
      const known = read(current.file)
      if (!known || known.integrity !== current.integrity) {
        for (const suffix of COPIES) {
          const source = join(sourceDir, `${current.file}${suffix}`)
          if (existsSync(source)) {
            writeAtomically(join(dir, `${current.file}${suffix}`), (temporary) =>
              copyFileSync(source, temporary),
            )
          }
        }
        const { version, file, integrity } = current
        writeRecord({ version, file, integrity, archivedAt: at })
      } else if (known.supersededAt !== undefined) {
        // Rolled back to it: current again, so no longer counting down.
        const { supersededAt: _, ...again } = known
        writeRecord(again)
      }
      for (const record of records()) {
        if (record.file === current.file) continue
        if (expired(record, retentionDays, at)) remove(record.file)
        else if (record.supersededAt === undefined) writeRecord({ ...record, supersededAt: at })
      }
    },
    find(file) {
      const record = read(file)
      return record && !expired(record, retentionDays, timers.now()) && existsSync(join(dir, file))
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
