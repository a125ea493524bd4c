/**
 * @module The archive of served bundles (DATA_DIR/embed): what it keeps, when a bundle starts counting
 * down (superseded), when it stops being served and is removed, and that replicas sharing the folder see
 * each other's bundles. Time is the fake clock's.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEmbedArchive } from '../../src/server/embed-archive.ts'

const DAY = 86_400_000
const A = { version: '0.1.0', file: 'offer-widget.0.1.0-aaaaaaaaaa.js', integrity: 'sha384-A' }
const B = { version: '0.1.0', file: 'offer-widget.0.1.0-bbbbbbbbbb.js', integrity: 'sha384-B' }
const C = { version: '0.2.0', file: 'offer-widget.0.2.0-cccccccccc.js', integrity: 'sha384-C' }

/** A build's output folder holding `bundle`, with its brotli and gzip copies. */
function build(bundle: { file: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'embed-build-'))
  for (const suffix of ['', '.br', '.gz'])
    writeFileSync(join(dir, `${bundle.file}${suffix}`), `${bundle.file}${suffix}`)
  return dir
}

let dir: string
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'))
  dir = join(mkdtempSync(join(tmpdir(), 'embed-archive-')), 'embed')
})
afterEach(() => {
  vi.useRealTimers()
})

describe('createEmbedArchive', () => {
  it('keeps the current bundle with its encoded copies, and serves it with no end while it is current', () => {
    const archive = createEmbedArchive({ dir, retentionDays: 30 })
    archive.keep(A, build(A))
    expect(readdirSync(dir).sort()).toEqual([A.file, `${A.file}.br`, `${A.file}.gz`, `${A.file}.meta.json`])
    vi.advanceTimersByTime(1000 * DAY)
    expect(archive.find(A.file)).toMatchObject({ ...A, archivedAt: Date.parse('2026-01-01T00:00:00Z') })
    expect(archive.find(A.file)?.supersededAt).toBeUndefined()
  })

  it('serves a superseded bundle for the retention period from its replacement, then neither serves nor keeps it', () => {
    const archive = createEmbedArchive({ dir, retentionDays: 30 })
    archive.keep(A, build(A))
    vi.advanceTimersByTime(200 * DAY)
    archive.keep(B, build(B))
    const replacedAt = Date.now()
    expect(archive.find(A.file)?.supersededAt).toBe(replacedAt)
    vi.advanceTimersByTime(30 * DAY)
    expect(archive.find(A.file)).toMatchObject(A)
    vi.advanceTimersByTime(1)
    // Past the period: not served at once, before any restart removes it.
    expect(archive.find(A.file)).toBeUndefined()
    expect(existsSync(join(dir, A.file))).toBe(true)
    // The next build kept (a start or a rebuild) removes it, copies and record.
    archive.keep(B, build(B))
    expect(readdirSync(dir).filter((name) => name.startsWith(A.file))).toEqual([])
    expect(archive.find(B.file)).toMatchObject(B)
  })

  it('a rollback to a kept bundle makes it current again: it no longer counts down, its successor does', () => {
    const archive = createEmbedArchive({ dir, retentionDays: 30 })
    archive.keep(A, build(A))
    archive.keep(B, build(B))
    vi.advanceTimersByTime(10 * DAY)
    archive.keep(A, build(A))
    vi.advanceTimersByTime(365 * DAY)
    expect(archive.find(A.file)?.supersededAt).toBeUndefined()
    expect(archive.find(B.file)).toBeUndefined()
  })

  it("latestOf gives a line's newest bundle within the period: 0.x lines are one minor", () => {
    const archive = createEmbedArchive({ dir, retentionDays: 30 })
    archive.keep(A, build(A))
    vi.advanceTimersByTime(DAY)
    archive.keep(B, build(B))
    vi.advanceTimersByTime(DAY)
    archive.keep(C, build(C))
    expect(archive.latestOf('v0.1')?.file).toBe(B.file)
    expect(archive.latestOf('v0.2')?.file).toBe(C.file)
    expect(archive.latestOf('v0')).toBeUndefined()
    vi.advanceTimersByTime(31 * DAY)
    expect(archive.latestOf('v0.1')).toBeUndefined()
    expect(archive.latestOf('v0.2')?.file).toBe(C.file)
  })

  it('replicas sharing the folder serve what either kept', () => {
    const one = createEmbedArchive({ dir, retentionDays: 30 })
    const two = createEmbedArchive({ dir, retentionDays: 30 })
    one.keep(A, build(A))
    two.keep(B, build(B))
    expect(one.find(B.file)).toMatchObject(B)
    expect(two.find(A.file)?.supersededAt).toBe(Date.now())
  })

  it('ignores a record that is not one (bad JSON, wrong shape, another name) and a name that is not a bundle', () => {
    const archive = createEmbedArchive({ dir, retentionDays: 30 })
    mkdirSync(dir, { recursive: true })
    for (const bundle of [A, B, C]) writeFileSync(join(dir, bundle.file), 'x')
    writeFileSync(join(dir, `${A.file}.meta.json`), '{')
    writeFileSync(
      join(dir, `${B.file}.meta.json`),
      JSON.stringify({ ...B, integrity: 'md5-x', archivedAt: 1 }),
    )
    writeFileSync(join(dir, `${C.file}.meta.json`), JSON.stringify({ ...A, archivedAt: 1 }))
    expect([A, B, C].map((bundle) => archive.find(bundle.file))).toEqual([undefined, undefined, undefined])
    expect(archive.find('../manifest.json')).toBeUndefined()
    expect(archive.latestOf('v0.1')).toBeUndefined()
  })

  it('never serves a record whose file is gone', () => {
    const archive = createEmbedArchive({ dir, retentionDays: 30 })
    archive.keep(A, build(A))
    writeFileSync(join(dir, `${B.file}.meta.json`), JSON.stringify({ ...B, archivedAt: Date.now() }))
    expect(archive.find(B.file)).toBeUndefined()
  })
})
