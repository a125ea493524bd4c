/**
 * @module Size budget of the npm widget build: builds `config/vite.widget.config.ts` (pass `--no-build` to read an
 * existing `dist/widget/`), prints raw and gzip sizes as a Markdown table: each file, then what each entry
 * loads up front (its static imports, followed) against the 30 kB gzip budget, and the chunks loaded only on
 * demand (a dynamic `import()`, e.g. the loan application). Exits non-zero over budget or when React leaked
 * into the bundle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

/** Issue #4: "<= 30 KB gzip". kB as Vite prints them: 1 kB = 1000 bytes. */
const BUDGET_GZIP_BYTES = 30_000
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'dist/widget')

if (!process.argv.includes('--no-build')) {
  const { build } = await import('vite')
  await build({ configFile: join(root, 'config/vite.widget.config.ts'), logLevel: 'warn' })
}

const files = readdirSync(outDir)
  .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
  .map((name) => join(outDir, name))
  .filter((path) => statSync(path).isFile())
  .sort()
if (files.length === 0) {
  console.error(`widget-size: nothing built in ${relative(root, outDir)}`)
  process.exit(1)
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`
const rows = files.map((path) => {
  const content = readFileSync(path)
  // Default zlib level, what most CDNs and servers use on the fly.
  return {
    file: relative(root, path),
    raw: content.length,
    gzip: gzipSync(content).length,
    text: content.toString('utf8'),
  }
})
const total = { raw: rows.reduce((n, r) => n + r.raw, 0), gzip: rows.reduce((n, r) => n + r.gzip, 0) }

/** Our own chunks a file imports: statically (`import … from "./x.js"`, `import "./x.js"`) or on demand. */
const own = (text: string, pattern: RegExp) =>
  [...text.matchAll(pattern)].map((m) => join(outDir, (m[1] ?? '').replace(/^\.\//, '')))
const byPath = new Map(rows.map((r) => [join(root, r.file), r]))
const staticOf = (path: string) =>
  own(byPath.get(path)?.text ?? '', /(?:\bfrom|\bimport)\s*["'](\.\/[^"']+)["']/g)
/** An entry and every chunk its static imports reach: what a page that imports it loads before rendering. */
function upFront(entry: string): string[] {
  const seen = new Set<string>([entry])
  for (const path of seen) for (const next of staticOf(path)) seen.add(next)
  return [...seen]
}
const ENTRIES = ['index.js', 'element.js', 'labels.js', 'loader.js'].map((name) => join(outDir, name))
const entryRows = ENTRIES.filter((path) => byPath.has(path)).map((entry) => {
  const closure = upFront(entry)
  return {
    file: relative(root, entry),
    raw: closure.reduce((n, path) => n + (byPath.get(path)?.raw ?? 0), 0),
    gzip: closure.reduce((n, path) => n + (byPath.get(path)?.gzip ?? 0), 0),
  }
})
const loadedUpFront = new Set(ENTRIES.flatMap((entry) => (byPath.has(entry) ? upFront(entry) : [])))
const onDemand = rows.filter((r) => !loadedUpFront.has(join(root, r.file)))
const largest = Math.max(...entryRows.map((r) => r.gzip))
const within = largest <= BUDGET_GZIP_BYTES

// React must stay external (the host's copy, a peer); TanStack Query and zod are external too, installed
// as the widget package's dependencies (scripts/pack.ts): this budget is the widget's own code.
const js = rows
  .filter((r) => r.file.endsWith('.js'))
  .map((r) => r.text)
  .join('\n')
const imports = [...js.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1] ?? '')
// react-dom/client: the `<offer-widget>` entry (`offer-widget/element`) mounts with the host's React DOM.
const PEERS = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client']
const DEPENDENCIES = /^(?:@tanstack\/(?:react-query|query-core)|zod)(?:\/|$)/
// The package's entries (component, element, labels) share chunks of the same build.
const ownChunk = (id: string) => id.startsWith('./')
const foreign = [...new Set(imports)].filter(
  (id) => !PEERS.includes(id) && !DEPENDENCIES.test(id) && !ownChunk(id),
)
const reactInside = /__SECRET_INTERNALS|__CLIENT_INTERNALS_DO_NOT_USE/.test(js)

console.log('| File | Raw | Gzip | Budget (gzip) | Status |')
console.log('|---|---:|---:|---:|---|')
for (const r of rows) console.log(`| \`${r.file}\` | ${kB(r.raw)} | ${kB(r.gzip)} | | |`)
console.log(`| All files | ${kB(total.raw)} | ${kB(total.gzip)} | | (info) |`)
for (const r of entryRows) {
  const status = `${r.gzip <= BUDGET_GZIP_BYTES ? 'within budget' : 'OVER BUDGET'} (${((r.gzip / BUDGET_GZIP_BYTES) * 100).toFixed(0)}%)`
  console.log(
    `| **Up front: \`${r.file}\` and its static imports** | **${kB(r.raw)}** | **${kB(r.gzip)}** | ${kB(BUDGET_GZIP_BYTES)} | ${status} |`,
  )
}
for (const r of onDemand)
  console.log(`| On demand only: \`${r.file}\` | ${kB(r.raw)} | ${kB(r.gzip)} | | (info) |`)
console.log(`\nExternal imports: ${[...new Set(imports)].map((id) => `\`${id}\``).join(', ') || 'none'}`)

let failed = !within
if (foreign.length > 0) {
  console.error(
    `widget-size: unexpected external imports ${foreign.join(', ')}: bundle them, or declare them (peers or the widget package's dependencies)`,
  )
  failed = true
}
if (reactInside) {
  console.error('widget-size: React itself is in the bundle; keep react and react-dom external')
  failed = true
}
if (!within)
  console.error(`widget-size: ${kB(largest)} gzip up front is over the ${kB(BUDGET_GZIP_BYTES)} budget`)
process.exit(failed ? 1 : 0)
