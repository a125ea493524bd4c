/**
 * @module Every module in `src/` opens with its `@module` comment, saying what it is for (docs/CONTRIBUTING.md:
 * "each module starts with a comment saying what it is for"): a file that loses it (as start-server.ts did
 * when its static files moved out) fails here by name. A directive (`'use client'`) may come first.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** The text before the first import or statement: directives and blank lines skipped. */
const opensWithModuleComment = (text: string) =>
  /^(?:\s*(['"])use \w+\1;?\s*)*\/\*\*\s*\n?\s*\*?\s*@module\s+\S/.test(text)

describe('module comments', () => {
  it('reads a module comment after a directive, and refuses a file without one', () => {
    expect(opensWithModuleComment("'use client'\n/**\n * @module The widget.\n */\n")).toBe(true)
    expect(opensWithModuleComment('/** @module One line. */\nexport {}\n')).toBe(true)
    expect(opensWithModuleComment("import x from 'y'\n/** @module Late. */\n")).toBe(false)
    expect(opensWithModuleComment('/** A comment that is no module comment. */\n')).toBe(false)
  })

  it('opens every module in src/', () => {
    const missing = sourceFiles(join(ROOT, 'src'))
      .filter((file) => !opensWithModuleComment(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
    expect(missing).toEqual([])
  })
})
