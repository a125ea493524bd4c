/**
 * @module The repository's root as a newcomer reads it (issue 45): at most 25 entries, each explained in the
 * root table of docs/development.md, and every entry that table names still there.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

/** Top-level names git keeps or would add (tracked, or untracked and not ignored). */
function rootEntries(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return [
    ...new Set(
      files
        .split('\n')
        .filter(Boolean)
        .map((path) => path.split('/')[0] as string),
    ),
  ].sort()
}

/** The entries the "The root" table of docs/development.md names, in its first column. */
function explained(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/development.md'), 'utf8')
  const section = doc.slice(doc.indexOf('## The root'), doc.indexOf('\n## ', doc.indexOf('## The root') + 1))
  const firstCells = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|')[1] ?? '')
  return firstCells.flatMap((cell) =>
    [...cell.matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, '')),
  )
}

describe('the root', () => {
  it('holds at most 25 entries', () => {
    expect(rootEntries().length).toBeLessThanOrEqual(25)
  })

  it('explains each entry in docs/development.md, and names none that is gone', () => {
    const entries = rootEntries()
    const names = explained()
    expect(entries.filter((entry) => !names.includes(entry))).toEqual([])
    expect(names.filter((name) => !entries.includes(name))).toEqual([])
  })
})
