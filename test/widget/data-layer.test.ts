/**
 * @module The widget's data layer is TanStack Query as published (issue 14): `@tanstack/react-query` and,
 * under the framework-free search core, the `@tanstack/query-core` it brings (issue 34), runtime
 * dependencies used through their public entries only. A TanStack upgrade must not meet hand-copied
 * internals or swapped modules, and the core must not pull React in.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const sources = ['src/widget', 'src/embed'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => ({ file: `${dir}/${name}`, text: readFileSync(join(root, dir, name), 'utf8') })),
)

describe('widget data layer', () => {
  it('is a runtime dependency', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(pkg.dependencies['@tanstack/react-query']).toBeDefined()
    expect(pkg.devDependencies?.['@tanstack/react-query']).toBeUndefined()
  })

  it("depends on query-core with react-query's own caret range, so a host on a newer react-query 5.x installs one copy", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    // An exact pin beside a caret react-query gave a host on a newer react-query two query-cores.
    expect(pkg.dependencies['@tanstack/query-core']).toMatch(/^\^5\./)
    expect(pkg.dependencies['@tanstack/query-core']).toBe(pkg.dependencies['@tanstack/react-query'])
    // Here too: the installed query-core is the one react-query brings.
    const installed = (name: string) =>
      JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'))
    expect(installed('@tanstack/react-query').dependencies['@tanstack/query-core']).toBe(
      installed('@tanstack/query-core').version,
    )
  })

  it('imports TanStack only through the entries of react-query and query-core and sets no underscore option', () => {
    const offenders = sources.filter(
      ({ text }) =>
        /from '@tanstack\/(?!(react-query|query-core)')/.test(text) || /\b_optimisticResults\b/.test(text),
    )
    expect(offenders.map((s) => s.file)).toEqual([])
    expect(sources.filter(({ text }) => /\buseQuery\(/.test(text)).map((s) => s.file)).not.toEqual([])
  })

  it('the search core (offer-search.ts) imports no React, directly or through our modules', () => {
    const seen = new Set<string>()
    const packages = new Set<string>()
    const visit = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const text = readFileSync(join(root, file), 'utf8')
      for (const [, spec] of text.matchAll(/^(?:import|export)(?:[^'"]*from)? *'([^']+)'/gm)) {
        if (!spec) continue
        if (spec.startsWith('.')) visit(join(dirname(file), spec))
        else packages.add(spec)
      }
    }
    visit('src/widget/offer-search.ts')
    expect(seen.size).toBeGreaterThan(5)
    expect(packages).toContain('@tanstack/query-core')
    expect([...packages].filter((name) => /^react(-dom)?(\/|$)|react-query/.test(name))).toEqual([])
  })

  it('leaves TanStack modules alone in the script-tag build', () => {
    const config = readFileSync(join(root, 'config/vite.embed.config.ts'), 'utf8')
    expect(config).not.toMatch(/@tanstack|resolveId/)
  })
})
