/**
 * @module The archive of served bundles (DATA_DIR/embed): what it keeps, when a bundle starts counting
 * down (superseded), when it stops being served and is removed, and that replicas sharing the folder see
 * each other's bundles without clobbering each other's writes, whatever order they start in. A damaged
 * file is never served; a folder that cannot be written degrades the archive and says so; a line's lookup
 * reads only that line's records, never synchronously. Time is the fake clock's.
 */
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import * as fsPromises from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEmbedArchive } from '../../src/server/embed-archive.ts'

// Pass-through spies, to see which files a lookup reads and that nothing on its path is synchronous.
vi.mock('node:fs', async (original) => {
  const actual = await original<typeof import('node:fs')>()
  return {
    ...actual,
    readFileSync: vi.fn(actual.readFileSync),
    readdirSync: vi.fn(actual.readdirSync),
    existsSync: vi.fn(actual.existsSync),
    statSync: vi.fn(actual.statSync),
  }
})
vi.mock('node:fs/promises', async (original) => {
  const actual = await original<typeof import('node:fs/promises')>()
  return { ...actual, readFile: vi.fn(actual.readFile), copyFile: vi.fn(actual.copyFile) }
})

const DAY = 86_400_000

/** A bundle of `version` whose bytes are `code` and whose integrity is theirs, as the build makes it. */
function bundle(
  version: string,
  hash: string,
  code = `window.OfferWidget={version:"${version}",build:"${hash}"}`,
) {
  const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`
  return { version, file: `offer-widget.${version}-${hash}.js`, integrity, code }
}
const A = bundle('0.1.0', 'aaaaaaaaaa')
const B = bundle('0.1.0', 'bbbbbbbbbb')
const C = bundle('0.2.0', 'cccccccccc')

/** A build's output folder holding `bundle`, with its brotli and gzip copies. */
function build(built: { file: string; code: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'embed-build-'))
  writeFileSync(join(dir, built.file), built.code)
  writeFileSync(join(dir, `${built.file}.br`), brotliCompressSync(built.code))
  writeFileSync(join(dir, `${built.file}.gz`), gzipSync(built.code))
  return dir
}

let dir: string
const warn = vi.fn<(message: string) => void>()
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'))
  dir = join(mkdtempSync(join(tmpdir(), 'embed-archive-')), 'embed')
  warn.mockReset()
})
afterEach(() => {
  vi.useRealTimers()
})

const archiveOf = (folder = dir) => createEmbedArchive({ dir: folder, retentionDays: 30, warn })

describe('createEmbedArchive', () => {
  it('keeps the current bundle with its encoded copies, and serves it with no end while it is current', async () => {
    const archive = archiveOf()
    await archive.keep(A, build(A))
    expect(readdirSync(dir).sort()).toEqual([A.file, `${A.file}.br`, `${A.file}.gz`, `${A.file}.meta.json`])
    vi.advanceTimersByTime(1000 * DAY)
    const { code: _, ...record } = A
    expect(await archive.find(A.file)).toMatchObject({
      ...record,
      archivedAt: Date.parse('2026-01-01T00:00:00Z'),
    })
    expect((await archive.find(A.file))?.supersededAt).toBeUndefined()
    expect(archive.degraded()).toBeUndefined()
  })

  it('serves a superseded bundle for the retention period from its replacement, then neither serves nor keeps it', async () => {
    const archive = archiveOf()
    await archive.keep(A, build(A))
    vi.advanceTimersByTime(200 * DAY)
    await archive.keep(B, build(B))
    const replacedAt = Date.now()
    expect((await archive.find(A.file))?.supersededAt).toBe(replacedAt)
    vi.advanceTimersByTime(30 * DAY)
    expect(await archive.find(A.file)).toMatchObject({ file: A.file })
    vi.advanceTimersByTime(1)
    // Past the period: not served at once, before any restart removes it.
    expect(await archive.find(A.file)).toBeUndefined()
    expect(existsSync(join(dir, A.file))).toBe(true)
    // The next build kept (a start or a rebuild) removes it, copies and record.
    await archive.keep(B, build(B))
    expect(readdirSync(dir).filter((name) => name.startsWith(A.file))).toEqual([])
    expect(await archive.find(B.file)).toMatchObject({ file: B.file })
  })

  it('a rollback to a kept bundle makes it current again: it no longer counts down, its successor does', async () => {
    const archive = archiveOf()
    await archive.keep(A, build(A))
    await archive.keep(B, build(B))
    vi.advanceTimersByTime(10 * DAY)
    await archive.keep(A, build(A))
    vi.advanceTimersByTime(365 * DAY)
    expect((await archive.find(A.file))?.supersededAt).toBeUndefined()
    expect(await archive.find(B.file)).toBeUndefined()
  })

  it("latestOf gives a line's newest bundle within the period: 0.x lines are one minor", async () => {
    const archive = archiveOf()
    await archive.keep(A, build(A))
    vi.advanceTimersByTime(DAY)
    await archive.keep(B, build(B))
    vi.advanceTimersByTime(DAY)
    await archive.keep(C, build(C))
    expect((await archive.latestOf('v0.1'))?.file).toBe(B.file)
    expect((await archive.latestOf('v0.2'))?.file).toBe(C.file)
    expect(await archive.latestOf('v0')).toBeUndefined()
    vi.advanceTimersByTime(31 * DAY)
    expect(await archive.latestOf('v0.1')).toBeUndefined()
    expect((await archive.latestOf('v0.2'))?.file).toBe(C.file)
  })

  it('replicas sharing the folder serve what either kept', async () => {
    const one = archiveOf()
    const two = archiveOf()
    await one.keep(A, build(A))
    await two.keep(B, build(B))
    expect(await one.find(B.file)).toMatchObject({ file: B.file })
    expect((await two.find(A.file))?.supersededAt).toBe(Date.now())
  })

  it('two replicas with the same PID starting at once never write or rename each other’s temporary file', async () => {
    mkdirSync(dir, { recursive: true })
    // Another container's PID 1 half-way through writing the same bundle: its temporary name with our PID.
    const theirs = join(dir, `${A.file}.tmp-${process.pid}`)
    writeFileSync(theirs, 'half of their copy')
    const [one, two] = [archiveOf(), archiveOf()]
    await Promise.all([one.keep(A, build(A)), two.keep(A, build(A))])
    // Still theirs to rename: had we used the same name, their rename would fail and their start with it.
    expect(readFileSync(theirs, 'utf8')).toBe('half of their copy')
    expect(readdirSync(dir).filter((name) => name.includes('.tmp-'))).toEqual([
      `${A.file}.tmp-${process.pid}`,
    ])
    expect(readFileSync(join(dir, A.file), 'utf8')).toBe(A.code)
    expect(await one.find(A.file)).toMatchObject({ file: A.file })
  })

  it('a rolling restart: an older build starting after a newer one leaves its line on the higher version', async () => {
    const newer = bundle('0.1.10', 'dddddddddd')
    const older = bundle('0.1.9', 'eeeeeeeeee')
    const archive = archiveOf()
    await archive.keep(newer, build(newer))
    vi.advanceTimersByTime(DAY)
    // A replica of the previous build restarts mid-deploy: the last writer, but not the highest version.
    await archive.keep(older, build(older))
    expect((await archive.latestOf('v0.1'))?.file).toBe(newer.file)
    vi.advanceTimersByTime(DAY)
    await archive.keep(C, build(C))
    expect((await archive.latestOf('v0.1'))?.file).toBe(newer.file)
  })

  it('never serves an archived file whose bytes are not its recorded integrity, says so, and falls back within the line', async () => {
    const archive = archiveOf()
    await archive.keep(A, build(A))
    vi.advanceTimersByTime(DAY)
    await archive.keep(B, build(B))
    await archive.keep(C, build(C))
    truncateSync(join(dir, B.file), 10)
    expect(await archive.find(B.file)).toBeUndefined()
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(`${join(dir, B.file)} does not match its recorded integrity`),
    )
    // The line's stable URL gives the highest whole bundle instead.
    expect((await archive.latestOf('v0.1'))?.file).toBe(A.file)
    // A damaged encoded copy is as bad: a browser asking for brotli would get it.
    truncateSync(join(dir, `${A.file}.br`), 5)
    expect(await archive.find(A.file)).toBeUndefined()
    expect(await archive.latestOf('v0.1')).toBeUndefined()
  })

  it('a folder it cannot write degrades the archive, naming the folder and the fix, until a keep works', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'embed-archive-'))
    // A file where the archive's folder should be: every write fails, as on a read-only volume.
    writeFileSync(join(parent, 'data'), '')
    const folder = join(parent, 'data/embed')
    const archive = archiveOf(folder)
    await expect(archive.keep(A, build(A))).rejects.toThrow(
      /could not keep bundle .* in .*data\/embed \(DATA_DIR\/embed\).*make the directory writable and give it space/,
    )
    expect(archive.degraded()).toContain(folder)
    expect(await archive.find(A.file)).toBeUndefined()
    fs.rmSync(join(parent, 'data'))
    await archive.keep(A, build(A))
    expect(archive.degraded()).toBeUndefined()
  })

  it('a full disk mid-copy leaves no partial file behind, and no record of the bundle', async () => {
    const archive = archiveOf()
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
    vi.mocked(fsPromises.copyFile).mockImplementationOnce(async (_source, temporary) => {
      writeFileSync(String(temporary), 'window.Offer')
      throw full
    })
    await expect(archive.keep(A, build(A))).rejects.toThrow(/ENOSPC/)
    expect(readdirSync(dir)).toEqual([])
    expect(archive.degraded()).toMatch(/ENOSPC/)
  })

  it("a line's lookup reads only that line's records, and nothing synchronously", async () => {
    const archive = archiveOf()
    for (const [i, version] of ['0.3.0', '0.4.0', '1.0.0', '1.1.0', '2.0.0'].entries()) {
      const other = bundle(version, `${i}`.repeat(10))
      await archive.keep(other, build(other))
    }
    await archive.keep(A, build(A))
    const sync = [fs.readFileSync, fs.readdirSync, fs.existsSync, fs.statSync].map((f) => vi.mocked(f))
    const readFile = vi.mocked(fsPromises.readFile)
    for (const spy of [...sync, readFile]) spy.mockClear()
    const recordsRead = () =>
      readFile.mock.calls.map(([path]) => String(path)).filter((p) => p.endsWith('.meta.json'))

    expect(await archive.latestOf('v7')).toBeUndefined()
    expect(recordsRead()).toEqual([])
    for (const spy of sync) expect(spy).not.toHaveBeenCalled()
    expect((await archive.latestOf('v1'))?.version).toBe('1.1.0')
    expect(
      recordsRead()
        .map((path) => path.slice(dir.length + 1))
        .sort(),
    ).toEqual(['offer-widget.1.0.0-2222222222.js.meta.json', 'offer-widget.1.1.0-3333333333.js.meta.json'])
    for (const spy of sync) expect(spy).not.toHaveBeenCalled()
  })

  it('ignores a record that is not one (bad JSON, wrong shape, another name, another version) and a name that is not a bundle', async () => {
    const archive = archiveOf()
    mkdirSync(dir, { recursive: true })
    const D = bundle('0.1.1', 'dddddddddd', 'x')
    for (const { file } of [A, B, C, D]) writeFileSync(join(dir, file), 'x')
    writeFileSync(join(dir, `${A.file}.meta.json`), '{')
    writeFileSync(
      join(dir, `${B.file}.meta.json`),
      JSON.stringify({ ...B, integrity: 'md5-x', archivedAt: 1 }),
    )
    writeFileSync(join(dir, `${C.file}.meta.json`), JSON.stringify({ ...A, archivedAt: 1 }))
    writeFileSync(join(dir, `${D.file}.meta.json`), JSON.stringify({ ...D, version: '0.9.0', archivedAt: 1 }))
    expect(await Promise.all([A, B, C, D].map((b) => archive.find(b.file)))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    expect(await archive.find('../manifest.json')).toBeUndefined()
    expect(await archive.latestOf('v0.1')).toBeUndefined()
    expect(await archive.latestOf('v0.9')).toBeUndefined()
  })

  it('never serves a record whose file is gone', async () => {
    const archive = archiveOf()
    await archive.keep(A, build(A))
    writeFileSync(join(dir, `${B.file}.meta.json`), JSON.stringify({ ...B, archivedAt: Date.now() }))
    expect(await archive.find(B.file)).toBeUndefined()
  })
})
