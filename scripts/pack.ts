/**
 * @module `npm run pack`: the two published packages, from the built `dist/` (built first when missing or
 * older than the sources), as tarballs in `dist/pack/`. The repository's own package.json stays the development workspace; each
 * published package.json is written here, its dependencies being exactly the packages its built code
 * imports by name (ranges taken from the root package.json), so neither can carry the other's world:
 * - `offer-widget`: the React component and hook (a `'use client'` entry), the `<offer-widget>` element
 *   (`/element`), the label packs (`/labels`), the script-tag bundle and its loader (`/loader`), their
 *   types and `styles.css`; React and react-dom are peers, TanStack Query and zod its dependencies.
 * Each package carries its own README (`docs/packages/`), not the repository's.
 * - `offer-widget-server`: the BFF, its Node server, config, marketplace, ledger, sandbox and partner kit
 *   as compiled JavaScript with types, the migrations, the script-tag bundle and the reports page's
 *   script it serves, the CLI.
 */
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { buildState } from '../src/server/build-freshness.ts'
import { isolateCss } from './isolate-css.ts'
import { typedExports } from './package-entries.ts'

const ROOT = join(import.meta.dirname, '..')
export const PACK_DIR = join(ROOT, 'dist', 'pack')

interface RootPackage {
  version: string
  license: string
  engines: Record<string, string>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as RootPackage

/** The peer range the widget supports (test/package renders it with both majors). */
const REACT_PEER = '^18.2.0 || ^19.0.0'
const REACT_PACKAGES = new Set(['react', 'react-dom'])
/**
 * Declared even when the built code does not name them yet: the widget's data layer is React Query
 * (docs/offer-search-api.md), and zod validates every answer it reads.
 */
const WIDGET_REQUIRED = ['@tanstack/react-query', 'zod']

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/**
 * Package names a built file imports (`from 'x'`, `import 'x'`, `import('x')`, subpaths folded into their
 * package); Node built-ins excluded.
 */
export function importedPackages(code: string): Set<string> {
  const names = new Set<string>()
  // TypeScript's pre-processor reads only import syntax (a string that looks like an import is not one).
  for (const { fileName: specifier } of ts.preProcessFile(code, true, true).importedFiles) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue
    const parts = specifier.split('/')
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string))
  }
  return names
}

function rangeOf(name: string): string {
  const range = root.dependencies[name] ?? root.devDependencies[name]
  if (!range) throw new Error(`pack: built code imports ${name}, which package.json does not declare: add it`)
  return range
}

function dependenciesOf(files: string[], extra: string[] = [], exclude = new Set<string>()) {
  const names = new Set(extra)
  for (const file of files.filter((path) => path.endsWith('.js') || path.endsWith('.d.ts'))) {
    for (const name of importedPackages(readFileSync(file, 'utf8'))) if (!exclude.has(name)) names.add(name)
  }
  return Object.fromEntries([...names].sort().map((name) => [name, rangeOf(name)]))
}

/**
 * The widget's dependencies as a host shares them: each a caret range, and query-core's the same as React
 * Query's. React Query pins its query-core exactly, so a widget pinning another query-core beside a host on a
 * newer React Query installs a second copy (two caches, twice the bytes); with the same caret range npm
 * dedupes both onto the host's.
 */
export function sharedDependencyProblems(dependencies: Record<string, string>): string[] {
  const problems = Object.entries(dependencies)
    .filter(([, range]) => !range.startsWith('^'))
    .map(([name, range]) => `${name} is "${range}": give it a caret range (^${range.replace(/^[~=v]*/, '')})`)
  const core = dependencies['@tanstack/query-core']
  const react = dependencies['@tanstack/react-query']
  if (core !== undefined && core !== react)
    problems.push(
      `@tanstack/query-core is "${core}" and @tanstack/react-query "${react}": give them the same range`,
    )
  return problems
}

function requireBuilt(paths: string[]): void {
  const missing = paths.filter((path) => !existsSync(join(ROOT, path)))
  if (missing.length > 0) throw new Error(`pack: ${missing.join(', ')} missing: run \`npm run build\` first`)
}

function writePackageJson(dir: string, manifest: Record<string, unknown>): void {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
}

const common = {
  version: root.version,
  license: root.license,
  type: 'module',
  engines: root.engines,
}

/**
 * One changelog for both packages and the embed: they are released together at one version
 * (docs/upgrading.md), so a user of either reads the same entry. npm ships it only when `files` names it.
 */
const CHANGELOG = 'CHANGELOG.md'
/** The MIT license, shipped in each package as npm and license checkers look for it. */
const LICENSE = 'LICENSE'

/** The README each package ships: install, the smallest working example, options, where the full docs are. */
export const PACKAGE_READMES = {
  widget: 'docs/packages/offer-widget.md',
  server: 'docs/packages/offer-widget-server.md',
} as const

/** What the packages are built from, and what `npm run build` makes of it for them. */
const BUILD_SOURCES = [
  'src',
  'bin',
  'drizzle',
  'package.json',
  'tsconfig.json',
  'config/tsconfig.server.json',
  'config/tsconfig.types.json',
  'config/vite.widget.config.ts',
  'config/vite.embed.config.ts',
  'config/vite.ssr.config.ts',
  'config/vite.reports.config.ts',
]
const BUILD_OUTPUTS = [
  'dist/widget/index.js',
  'dist/widget/element.js',
  'dist/widget/labels.js',
  'dist/widget/loader.js',
  'dist/types/widget/index.d.ts',
  'dist/embed/manifest.json',
  'dist/server/server/index.js',
  'dist/ssr/render-widget-html.js',
  'dist/reports/app.js',
]

/**
 * Runs `npm run build` when an output is missing or older than the sources (right after the quick start,
 * `npm start` has built only the browser assets, from the sources): `npm run pack` works on its own and
 * never packs a stale build. A build that is current costs nothing.
 */
function buildIfStale(): void {
  const state = buildState(
    BUILD_SOURCES.map((path) => join(ROOT, path)),
    BUILD_OUTPUTS.map((path) => join(ROOT, path)),
  )
  if (state === 'current') return
  console.log(
    `pack: the build is ${state === 'stale' ? 'older than its sources' : 'missing'}: running npm run build`,
  )
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' })
}

function stageWidget(dir: string): void {
  requireBuilt([
    'dist/widget/index.js',
    'dist/widget/element.js',
    'dist/widget/labels.js',
    'dist/widget/loader.js',
    'dist/types/widget/index.d.ts',
    'dist/embed/manifest.json',
  ])
  if (!/^['"]use client['"]/.test(readFileSync(join(ROOT, 'dist/widget/index.js'), 'utf8'))) {
    throw new Error(
      "pack: dist/widget/index.js lost its 'use client' directive (see config/vite.widget.config.ts)",
    )
  }
  cpSync(join(ROOT, 'dist/widget'), join(dir, 'dist'), { recursive: true })
  cpSync(join(ROOT, 'dist/types'), join(dir, 'dist/types'), { recursive: true })
  const dependencies = dependenciesOf(filesUnder(join(dir, 'dist')), WIDGET_REQUIRED, REACT_PACKAGES)
  const shared = sharedDependencyProblems(dependencies)
  if (shared.length > 0) throw new Error(`pack: in package.json, ${shared.join('; ')}`)
  // The bundle for self-hosting, without the BFF's precompressed copies (a page's own server compresses).
  cpSync(join(ROOT, 'dist/embed'), join(dir, 'embed'), {
    recursive: true,
    filter: (source) => !/\.(br|gz)$/.test(source),
  })
  // The stylesheet the component injects: page CSS cannot restyle the widget (scripts/isolate-css.ts).
  writeFileSync(
    join(dir, 'styles.css'),
    isolateCss(readFileSync(join(ROOT, 'src/widget/styles.css'), 'utf8')),
  )
  cpSync(join(ROOT, PACKAGE_READMES.widget), join(dir, 'README.md'))
  cpSync(join(ROOT, CHANGELOG), join(dir, CHANGELOG))
  cpSync(join(ROOT, LICENSE), join(dir, LICENSE))
  writePackageJson(dir, {
    name: 'offer-widget',
    ...common,
    description:
      'Live insurance and loan offers for a comparison page: React component and script-tag bundle',
    sideEffects: ['*.css'],
    exports: {
      ...typedExports('offer-widget'),
      './styles.css': './styles.css',
      './embed/manifest.json': './embed/manifest.json',
      './embed/*.js': './embed/*.js',
      './package.json': './package.json',
    },
    files: ['dist', 'embed', 'styles.css', 'README.md', CHANGELOG, LICENSE],
    peerDependencies: { react: REACT_PEER, 'react-dom': REACT_PEER },
    dependencies,
  })
}

function stageServer(dir: string): void {
  requireBuilt([
    'dist/server/server/index.js',
    'dist/embed/manifest.json',
    'dist/ssr/render-widget-html.js',
    'dist/reports/app.js',
  ])
  cpSync(join(ROOT, 'dist/server'), join(dir, 'dist/server'), { recursive: true })
  // The reports page's script, which the marketplace reads at start (src/marketplace/reports/report-page.ts).
  cpSync(join(ROOT, 'dist/reports'), join(dir, 'dist/reports'), { recursive: true })
  // The widget's server renderer: self-contained (React inside), so it adds no dependency.
  cpSync(join(ROOT, 'dist/ssr'), join(dir, 'dist/ssr'), { recursive: true })
  cpSync(join(ROOT, 'dist/embed'), join(dir, 'dist/embed'), { recursive: true })
  cpSync(join(ROOT, 'drizzle'), join(dir, 'drizzle'), { recursive: true })
  cpSync(join(ROOT, 'bin/offer-widget.js'), join(dir, 'bin/offer-widget.js'))
  cpSync(join(ROOT, PACKAGE_READMES.server), join(dir, 'README.md'))
  cpSync(join(ROOT, CHANGELOG), join(dir, CHANGELOG))
  cpSync(join(ROOT, LICENSE), join(dir, LICENSE))
  const exports = { ...typedExports('offer-widget-server'), './package.json': './package.json' }
  writePackageJson(dir, {
    name: 'offer-widget-server',
    ...common,
    description: 'The offer widget BFF and second-look marketplace for Node and fetch runtimes',
    sideEffects: false,
    exports,
    bin: { 'offer-widget': './bin/offer-widget.js' },
    files: ['dist', 'drizzle', 'bin', 'README.md', CHANGELOG, LICENSE],
    dependencies: dependenciesOf(filesUnder(join(dir, 'dist/server'))),
  })
}

export interface PackedTarball {
  name: string
  file: string
  size: number
  unpackedSize: number
}

function npmPack(dir: string): PackedTarball {
  const out = execFileSync('npm', ['pack', dir, '--json', '--pack-destination', PACK_DIR], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  const [info] = JSON.parse(out) as Array<{
    name: string
    filename: string
    size: number
    unpackedSize: number
  }>
  if (!info) throw new Error(`pack: npm pack ${dir} printed nothing`)
  return {
    name: info.name,
    file: join(PACK_DIR, info.filename),
    size: info.size,
    unpackedSize: info.unpackedSize,
  }
}

export function packAll(): PackedTarball[] {
  buildIfStale()
  rmSync(PACK_DIR, { recursive: true, force: true })
  const staged = { widget: join(PACK_DIR, 'widget'), server: join(PACK_DIR, 'server') }
  for (const dir of Object.values(staged)) mkdirSync(dir, { recursive: true })
  stageWidget(staged.widget)
  stageServer(staged.server)
  return [npmPack(staged.widget), npmPack(staged.server)]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const tarball of packAll()) {
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
    console.log(
      `${tarball.name}: ${relative(ROOT, tarball.file)} (${kb(tarball.size)} packed, ${kb(tarball.unpackedSize)} unpacked)`,
    )
  }
}
