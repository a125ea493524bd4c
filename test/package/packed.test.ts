/**
 * The package as users get it: `npm pack`, unpack into a scratch node_modules, then import it by its name
 * from a module that lives outside this repository and render the widget on the server.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const repo = resolve(import.meta.dirname, '../..')
let scratch = ''

beforeAll(() => {
  if (!existsSync(join(repo, 'dist/widget/index.js'))) {
    throw new Error('dist/widget is missing: run `npm run build` before `npm run test:package`')
  }
  scratch = mkdtempSync(join(tmpdir(), 'offer-widget-packed-'))
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: repo })
    .toString()
    .trim()
    .split('\n')
    .at(-1) as string
  const modules = join(scratch, 'node_modules')
  const target = join(modules, 'offer-widget')
  mkdirSync(target, { recursive: true })
  execFileSync('tar', ['-xzf', join(scratch, tarball), '-C', target, '--strip-components=1'])
  // The consumer brings React (a peer); link the repository's copies rather than installing.
  for (const peer of ['react', 'react-dom'])
    symlinkSync(join(repo, 'node_modules', peer), join(modules, peer))
}, 120_000)

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
})

describe('offer-widget as packed', () => {
  it('imports by name and renders the server placeholder without touching window', () => {
    const script = join(scratch, 'consumer.mjs')
    writeFileSync(
      script,
      [
        "import { createElement } from 'react'",
        "import { renderToString } from 'react-dom/server'",
        "import { OfferWidget, useOfferSearch, DEFAULT_LABELS } from 'offer-widget'",
        "if (typeof window !== 'undefined') throw new Error('window leaked')",
        "const html = renderToString(createElement(OfferWidget, { search: { zipCode: '30301' } }))",
        'console.log(JSON.stringify({ html, hook: typeof useOfferSearch, loading: DEFAULT_LABELS.loading }))',
      ].join('\n'),
    )
    const out = JSON.parse(execFileSync(process.execPath, [script], { cwd: scratch }).toString())
    expect(out.hook).toBe('function')
    expect(out.html).toContain(out.loading)
  })

  it('ships type declarations for the entry it exports', () => {
    expect(existsSync(join(scratch, 'node_modules/offer-widget/dist/types/widget/index.d.ts'))).toBe(true)
  })
})
