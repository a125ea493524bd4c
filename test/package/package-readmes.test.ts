/**
 * @module Each tarball's own README (`docs/packages/`, written into the package by `npm run pack`), as npm
 * shows it: the package's name, how to install it, the smallest working example importing only what the
 * package exports, the options table (every prop of `OfferWidgetProps`; every variable one the server
 * reads), where the full docs are, and nothing of the repository's own README (its quick start); and the
 * repository's CHANGELOG.md beside it.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { extractProps } from '../../src/playground/props-doc/extract-props.ts'
import { REPO, tarball } from './support/scratch-project.ts'

/** A file of the tarball, as npm installs it. */
function packed(name: string, path: string): string {
  return execFileSync('tar', ['-xzOf', tarball(name), `package/${path}`], { encoding: 'utf8' })
}

function fences(markdown: string): { lang: string; code: string }[] {
  return [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] as string,
    code: m[2] as string,
  }))
}

/** `import { A, B } from 'pkg/sub'` -> [['pkg/sub', ['A', 'B']]], type-only names left out. */
function namedImports(code: string): Array<[string, string[]]> {
  return [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)].map((m) => [
    m[2] as string,
    (m[1] as string)
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type ')),
  ])
}

const PACKAGES = ['offer-widget', 'offer-widget-server'] as const

describe.each(PACKAGES)('%s: the README in the tarball', (name) => {
  const readme = packed(name, 'README.md')
  const manifest = JSON.parse(packed(name, 'package.json')) as {
    exports: Record<string, string | { types: string }>
  }

  it('is the package’s own: its name first, no repository quick start', () => {
    expect(readme.split('\n')[0]).toBe(`# ${name}`)
    expect(readme).not.toMatch(/^## Quick start/m)
    expect(readme).not.toContain('npm install && npm start')
    expect(readme).not.toContain('npm run pack')
    expect(readme).toBe(readFileSync(join(REPO, 'docs/packages', `${name}.md`), 'utf8'))
    expect(readme.split('\n').length).toBeLessThan(200)
  })

  it('says how to install it', () => {
    const install = fences(readme).find((fence) => fence.lang === 'sh')
    expect(install?.code.trim()).toBe(`npm install ${name}`)
  })

  it('has a working example whose every import is an export of the package', () => {
    const examples = fences(readme).filter((fence) => /^(tsx?|js|html)$/.test(fence.lang))
    expect(examples.length).toBeGreaterThan(0)
    let checked = 0
    for (const { code } of examples) {
      for (const [specifier, names] of namedImports(code)) {
        if (specifier !== name && !specifier.startsWith(`${name}/`)) continue
        const entry = manifest.exports[specifier === name ? '.' : `./${specifier.slice(name.length + 1)}`]
        expect(entry, `${specifier} is not an entry of ${name}`).toBeDefined()
        const types = packed(name, (entry as { types: string }).types.replace(/^\.\//, ''))
        for (const imported of names) {
          expect(types, `${imported} from ${specifier}`).toMatch(new RegExp(`\\b${imported}\\b`))
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('links to the full documentation', () => {
    expect(readme).toMatch(/^## Full documentation\n\n.*README\.md/m)
  })

  it("ships the changelog, with an entry for the package's version and an Unreleased section", () => {
    const changelog = packed(name, 'CHANGELOG.md')
    const { version } = JSON.parse(packed(name, 'package.json')) as { version: string }
    expect(changelog).toBe(readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8'))
    expect(changelog).toMatch(/^## \[Unreleased\]$/m)
    expect(changelog).toMatch(
      new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    )
    expect(readme).toContain('CHANGELOG.md')
  })
})

describe('options tables', () => {
  it('offer-widget lists every prop of OfferWidgetProps', () => {
    const readme = packed('offer-widget', 'README.md')
    const { OfferWidgetProps } = extractProps(join(REPO, 'src/widget/index.ts'), ['OfferWidgetProps'])
    for (const prop of OfferWidgetProps) expect(readme, prop.name).toContain(`| \`${prop.name}\` |`)
  })

  it('offer-widget-server lists variables the server reads', () => {
    const readme = packed('offer-widget-server', 'README.md')
    const example = readFileSync(join(REPO, '.env.example'), 'utf8')
    const rows = [...readme.matchAll(/^\| `([A-Z_]+)`/gm)].map((m) => m[1] as string)
    expect(rows.length).toBeGreaterThan(5)
    for (const variable of rows) expect(example, variable).toMatch(new RegExp(`^#?\\s*${variable}=`, 'm'))
  })
})
