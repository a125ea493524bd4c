/**
 * @module A new PGlite ledger on disk is made whole or not at all: unpacked from the template into a sibling
 * directory and renamed into place, so a half-made directory (a creation that was killed, or an earlier
 * version's partial `ledger`) is never opened as a database; a finished one is reopened as it is.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
    const ledger = await openLedger({ dataDir: root })
    expect(await ledger.getSearch('00000000-0000-4000-8000-000000000000')).toBeUndefined()
    await ledger.close()
  })
})
