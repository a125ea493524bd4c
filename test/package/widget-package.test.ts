/**
 * @module The widget package as a front-end gets it: its tarball installed alone into a scratch project
 * (with React 18, then React 19, the consumer's own), imported by name from plain Node, rendered with
 * react-dom's client into a jsdom page, searching a real BFF over HTTP until offers show. Its install tree
 * carries nothing of the server. `offer-widget/loader`, imported the same way, is tiny, imports nothing and
 * resolves to null on the server.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importedPackages } from '../../scripts/pack.ts'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { documentsText } from '../docs/support/readme-blocks.ts'
import {
  diskBytes,
  installedNames,
  installedVersions,
  REPO,
  removeScratch,
  runNode,
  scratchProject,
  tarball,
} from './support/scratch-project.ts'

/** Packages of the server world; none may be in a front-end's install. */
const SERVER_PACKAGES = [
  'offer-widget-server',
  'hono',
  '@hono/node-server',
  '@electric-sql/pglite',
  'pg',
  'ioredis',
  'pino',
  'drizzle-orm',
  'prom-client',
  'undici',
  'tsx',
  'esbuild',
  'vite',
]

/** Renders <OfferWidget> into a jsdom page and prints what it saw once offers are shown. */
const CONSUMER = `
import { JSDOM } from ${JSON.stringify(join(REPO, 'node_modules/jsdom/lib/api.js'))}
const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', {
  url: process.env.PAGE_URL,
  pretendToBeVisual: true,
})
// The browser globals react-dom and the widget use; Node's own fetch, URL and timers stay.
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (!(key in globalThis)) globalThis[key] = dom.window[key]
}
globalThis.window = dom.window
globalThis.document = dom.window.document

const { createElement, version } = await import('react')
const { createRoot } = await import('react-dom/client')
const { OfferWidget, useOfferSearch, DEFAULT_LABELS } = await import('offer-widget')
const styles = import.meta.resolve('offer-widget/styles.css')
const manifest = import.meta.resolve('offer-widget/embed/manifest.json')

const root = createRoot(document.getElementById('root'))
const created = []
const offers = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no offers shown within 30 s')), 30_000)
  root.render(
    createElement(OfferWidget, {
      endpoint: process.env.BFF_URL,
      search: { zipCode: '00001' },
      onSearchCreated: ({ uuid }) => created.push(uuid),
      onOffersShown: (shown) => {
        clearTimeout(timer)
        resolve(shown)
      },
      onError: (error) => {
        clearTimeout(timer)
        reject(new Error('widget error: ' + error.kind + ' ' + error.message))
      },
    }),
  )
})
const text = document.getElementById('root').textContent
root.unmount()
console.log(JSON.stringify({
  react: version,
  hook: typeof useOfferSearch,
  labels: typeof DEFAULT_LABELS.loading,
  created,
  offers: offers.map((offer) => offer.uuid),
  text,
  styles,
  manifest,
}))
process.exit(0)
`

let bff: RunningServer
const scratches: string[] = []

beforeAll(async () => {
  bff = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'warn' }), { secondLook: false })
})

afterAll(async () => {
  await bff?.close()
  for (const dir of scratches) removeScratch(dir)
})

describe.each(['18', '19'])('offer-widget installed alone with React %s', (major) => {
  let dir = ''
  beforeAll(() => {
    dir = scratchProject(`offer-widget-react${major}`, [
      tarball('offer-widget'),
      `react@${major}`,
      `react-dom@${major}`,
    ])
    scratches.push(dir)
  })

  it('installs React Query and zod as its own dependencies and nothing of the server', () => {
    const names = installedNames(dir)
    expect(names).toContain('@tanstack/react-query')
    expect(names).toContain('zod')
    for (const name of SERVER_PACKAGES) expect(names, name).not.toContain(name)
    const bytes = (path: string) => diskBytes(join(dir, 'node_modules', path))
    const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`
    const react = bytes('react') + bytes('react-dom') + bytes('scheduler')
    console.log(
      `offer-widget install with React ${major}: node_modules ${kib(bytes(''))}, without React (the peers) ${kib(bytes('') - react)}, the package itself ${kib(bytes('offer-widget'))}`,
    )
  })

  it('renders by name and shows offers from a real BFF', async () => {
    writeFileSync(join(dir, 'render.mjs'), CONSUMER)
    const out = await runNode<{
      react: string
      hook: string
      labels: string
      created: string[]
      offers: string[]
      text: string
      styles: string
      manifest: string
    }>(dir, 'render.mjs', { PAGE_URL: `${bff.url}/shop.html`, BFF_URL: bff.url })
    expect(out.react.split('.')[0]).toBe(major)
    expect(out.hook).toBe('function')
    expect(out.labels).toBe('string')
    expect(out.created).toHaveLength(1)
    expect(out.offers.length).toBeGreaterThan(0)
    expect(out.text.length).toBeGreaterThan(0)
    expect(out.styles).toMatch(/node_modules\/offer-widget\/styles\.css$/)
    expect(out.manifest).toMatch(/node_modules\/offer-widget\/embed\/manifest\.json$/)
  })
})

describe("offer-widget installed beside a host's own React Query, the newest 5.x", () => {
  let dir = ''
  beforeAll(() => {
    dir = scratchProject('offer-widget-host-query', [
      tarball('offer-widget'),
      'react@19',
      'react-dom@19',
      '@tanstack/react-query@^5',
    ])
    scratches.push(dir)
  })

  it('shares one query-core with the host: no second copy beside the host React Query', () => {
    const versions = (name: string) => [...new Set(installedVersions(dir, name))].sort()
    const host = JSON.parse(
      readFileSync(join(dir, 'node_modules/@tanstack/react-query/package.json'), 'utf8'),
    )
    console.log(
      `a host on @tanstack/react-query ${host.version}: query-core ${versions('@tanstack/query-core').join(', ')}`,
    )
    expect(versions('@tanstack/react-query')).toEqual([host.version])
    expect(versions('@tanstack/query-core')).toHaveLength(1)
  })
})

/** Imports the loader by name in plain Node (no window: a server render) and prints what it got. */
const LOADER_CONSUMER = `
const loader = await import('offer-widget/loader')
const onServer = await loader.loadOfferWidget({ src: 'https://offers.example.com/embed/offer-widget.js' })
console.log(JSON.stringify({
  exports: Object.keys(loader),
  onServer,
  file: import.meta.resolve('offer-widget/loader'),
  window: typeof window,
}))
`

describe('offer-widget/loader installed alone, as a non-React app gets it', () => {
  let dir = ''
  beforeAll(() => {
    dir = scratchProject('offer-widget-loader', [tarball('offer-widget')])
    scratches.push(dir)
  })

  it('exports loadOfferWidget, which resolves to null on the server', async () => {
    writeFileSync(join(dir, 'loader.mjs'), LOADER_CONSUMER)
    const out = await runNode<{ exports: string[]; onServer: unknown; file: string; window: string }>(
      dir,
      'loader.mjs',
    )
    expect(out.exports).toEqual(['loadOfferWidget'])
    expect(out.window).toBe('undefined')
    expect(out.onServer).toBeNull()
    expect(out.file).toMatch(/node_modules\/offer-widget\/dist\/loader\.js$/)
  })

  it('is one small file that imports nothing: neither React nor the widget comes with it', () => {
    const code = readFileSync(join(dir, 'node_modules/offer-widget/dist/loader.js'), 'utf8')
    expect([...importedPackages(code)]).toEqual([])
    expect(code).not.toMatch(/\bimport\s*[({'"]|\bfrom\s*['"]/)
    const gzip = gzipSync(code, { level: 9 }).length
    console.log(`offer-widget/loader: ${code.length} B, ${gzip} B gzip -9`)
    expect(gzip).toBeLessThan(1024)
    // The guide states the size; it must be this file's, to the tenth of a kB.
    const stated = /The entry is ([\d.]+) kB \(([\d.]+) kB gzip\)/.exec(documentsText())
    expect(stated?.slice(1)).toEqual([(code.length / 1000).toFixed(1), (gzip / 1000).toFixed(1)])
  })
})
