/**
 * @module The widget's data layer is `@tanstack/react-query` as published (issue 14): a runtime dependency,
 * used through its public entry only. A TanStack upgrade must not meet hand-copied internals or swapped modules.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const sources = ['src/widget', 'src/embed'].flatMap((dir) =>
  readdirSync(join(root, dir)).map((name) => ({
    file: `${dir}/${name}`,
    text: readFileSync(join(root, dir, name), 'utf8'),
  })),
)

describe('widget data layer', () => {
  it('is a runtime dependency', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(pkg.dependencies['@tanstack/react-query']).toBeDefined()
    expect(pkg.devDependencies?.['@tanstack/react-query']).toBeUndefined()
  })

  it('imports TanStack only through @tanstack/react-query and sets no underscore option', () => {
    const offenders = sources.filter(
      ({ text }) => /from '@tanstack\/(?!react-query')/.test(text) || /\b_optimisticResults\b/.test(text),
    )
    expect(offenders.map((s) => s.file)).toEqual([])
    expect(sources.filter(({ text }) => /\buseQuery\(/.test(text)).map((s) => s.file)).not.toEqual([])
  })

  it('leaves TanStack modules alone in the script-tag build', () => {
    const config = readFileSync(join(root, 'vite.embed.config.ts'), 'utf8')
    expect(config).not.toMatch(/@tanstack|resolveId/)
  })
})
