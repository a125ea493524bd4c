/**
 * @module A new PGlite ledger on disk is made whole or not at all: unpacked from the template into a sibling
 * directory and renamed into place, so a half-made directory (a creation that was killed, or an earlier
 * version's partial `ledger`) is never opened as a database; a finished one is reopened as it is.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { MIGRATIONS_FOLDER, openLedger } from '../../src/ledger/index.ts'
import { ensurePgliteDirectory, isCompleteDatabase } from '../../src/ledger/pglite-directory.ts'
import { createPgliteTemplate } from '../../src/ledger/pglite-template.ts'

const roots: string[] = []
function emptyDataDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'ledger-fresh-'))
  roots.push(root)
  return root
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** `bytes` as a stream of pieces of 1 to 4096 bytes, sizes from a fixed seed. */
async function* inPieces(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  let seed = 30
  for (let at = 0; at < bytes.length; ) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    const size = 1 + (seed % 4096)
    yield bytes.subarray(at, at + size)
    at += size
  }
}

/** Every file under `dir`, by relative path, with a digest of its bytes. */
function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex')
  }
  return files
}

/** A process id that no longer runs: a creation whose server was killed. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', ''])
  if (pid === undefined) throw new Error('could not start a process to take its pid')
  return pid
}

describe('a fresh PGlite ledger on disk', () => {
  // Real PGlite databases on disk: seconds each on a busy machine.
  it('is a whole database named ledger, owner-only, with nothing left beside it', {
    timeout: 60_000,
  }, async () => {
    const root = emptyDataDir()
    const ledger = await openLedger({ dataDir: root })
    expect(await ledger.getSearch('00000000-0000-4000-8000-000000000000')).toBeUndefined()
    await ledger.close()
    expect(readdirSync(root)).toEqual(['ledger'])
    expect(isCompleteDatabase(join(root, 'ledger'))).toBe(true)
    expect(statSync(join(root, 'ledger')).mode & 0o777).toBe(0o700)

    // Reopened as it is, not made again.
    writeFileSync(join(root, 'ledger', 'kept'), '')
    const again = await openLedger({ dataDir: root })
    await again.ping()
    await again.close()
    expect(existsSync(join(root, 'ledger', 'kept'))).toBe(true)
  })

  it.each([
    ['in memory', () => ({ inMemory: true })],
    ['on disk', () => ({ dataDir: emptyDataDir() })],
  ])(
    'runs PostgreSQL %s with shared memory sized for one session, not the 128 MB default',
    {
      timeout: 60_000,
    },
    async (_where, options) => {
      const ledger = await openLedger(options())
      try {
        const setting = async (name: string) =>
          (
            (await ledger.db.execute(sql.raw(`SHOW ${name}`))) as unknown as {
              rows: Array<Record<string, string>>
            }
          ).rows[0]?.[name]
        expect(await setting('shared_buffers')).toBe('4MB')
        expect(await setting('max_connections')).toBe('5')
        // PGlite's own parameters are kept (single-user mode, no parallel workers).
        expect(await setting('max_worker_processes')).toBe('0')
      } finally {
        await ledger.close()
      }
    },
  )

  it('replaces the empty ledger directory earlier versions made at start', { timeout: 60_000 }, async () => {
    const root = emptyDataDir()
    mkdirSync(join(root, 'ledger'), { mode: 0o755 })
    const ledger = await openLedger({ dataDir: root })
    await ledger.ping()
    await ledger.close()
    expect(isCompleteDatabase(join(root, 'ledger'))).toBe(true)
    expect(statSync(join(root, 'ledger')).mode & 0o777).toBe(0o700)
  })

  it('never takes a half-made directory for a database', { timeout: 60_000 }, async () => {
    const root = emptyDataDir()
    // A creation killed half-way, and an earlier version's `ledger` with PG_VERSION but no control file.
    const abandoned = join(root, `ledger.creating-${deadPid()}-0badc0de`)
    mkdirSync(join(abandoned, 'global'), { recursive: true })
    writeFileSync(join(abandoned, 'PG_VERSION'), '17\n')
    writeFileSync(join(abandoned, 'global', 'pg_control'), 'junk')
    mkdirSync(join(root, 'ledger'))
    writeFileSync(join(root, 'ledger', 'PG_VERSION'), '17\n')

    const ledger = await openLedger({ dataDir: root })
    expect(await ledger.getSearch('00000000-0000-4000-8000-000000000000')).toBeUndefined()
    await ledger.close()

    const names = readdirSync(root)
    expect(names.filter((name) => name.startsWith('ledger.creating-'))).toEqual([])
    // The partial one is moved aside, not deleted: it is not ours to judge.
    const aside = names.filter((name) => name.startsWith('ledger.incomplete-'))
    expect(aside).toHaveLength(1)
    expect(readdirSync(join(root, aside[0] as string))).toEqual(['PG_VERSION'])
    expect(isCompleteDatabase(join(root, 'ledger'))).toBe(true)
  })

  it('keeps nothing of a creation that failed', async () => {
    const root = emptyDataDir()
    const broken = async () => new Uint8Array([0x1f, 0x8b, 0, 1, 2, 3])
    await expect(ensurePgliteDirectory(root, broken)).rejects.toThrow()
    expect(readdirSync(root)).toEqual([])
  })

  it('fails at once when its directory cannot be made, opened in the background or not', async () => {
    const root = emptyDataDir()
    writeFileSync(join(root, 'file'), '')
    await expect(openLedger({ dataDir: join(root, 'file') })).rejects.toThrow(/ENOTDIR|EEXIST/)
    await expect(openLedger({ dataDir: join(root, 'file'), background: true })).rejects.toThrow(
      /ENOTDIR|EEXIST/,
    )
  })

  it('is made from a template made in a worker thread when none is built', { timeout: 60_000 }, async () => {
    const template = await createPgliteTemplate(MIGRATIONS_FOLDER)
    const root = emptyDataDir()
    const dir = await ensurePgliteDirectory(root, async () => template)
    expect(isCompleteDatabase(dir)).toBe(true)

    // Streamed in pieces of every size (so entries and headers straddle the pieces), the same files.
    const streamed = await ensurePgliteDirectory(emptyDataDir(), async () => inPieces(template))
    expect(filesUnder(streamed)).toEqual(filesUnder(dir))

    const ledger = await openLedger({ dataDir: root })
    expect(await ledger.getSearch('00000000-0000-4000-8000-000000000000')).toBeUndefined()
    await ledger.close()
  })

  it('refuses an archive that ends inside an entry, and keeps nothing of it', async () => {
    const root = emptyDataDir()
    const header = Buffer.alloc(512)
    header.write('PG_VERSION', 0)
    header.write('00000000144\0', 124) // 100 bytes, of which only 10 follow
    header.write('0', 156)
    const cut = gzipSync(Buffer.concat([header, Buffer.from('17\n1234567')]))
    await expect(ensurePgliteDirectory(root, async () => cut)).rejects.toThrow(/ends inside "PG_VERSION"/)
    expect(readdirSync(root)).toEqual([])
  })
})
