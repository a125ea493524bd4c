/**
 * @module A PGlite ledger on disk opens on its first call, not at `openLedger`: until then no database is
 * created (no PostgreSQL files, none of PGlite's memory), readiness answers, and closing has nothing to do.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../src/ledger/index.ts'

describe('openLedger on disk (PGlite)', () => {
  it('creates the database on the first call, not before', { timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'ledger-lazy-'))
    try {
      const ledger = await openLedger({ dataDir: root })
      expect(ledger.driver).toBe('pglite')
      await ledger.ping()
      expect(readdirSync(join(root, 'ledger'))).toEqual([])
      expect(() => ledger.db).toThrow(/opens on its first call/)

      expect(await ledger.getSearch('00000000-0000-4000-8000-000000000000')).toBeUndefined()
      expect(existsSync(join(root, 'ledger', 'PG_VERSION'))).toBe(true)
      expect(ledger.db).toBeDefined()
      await ledger.ping()
      await ledger.close()
      await expect(ledger.getSearch('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/closed/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('still fails at start when its directory cannot be made', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ledger-lazy-'))
    try {
      writeFileSync(join(root, 'file'), '')
      await expect(openLedger({ dataDir: join(root, 'file') })).rejects.toThrow(/ENOTDIR|EEXIST/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
