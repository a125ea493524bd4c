/**
 * @module `npm run check:api` (run by `.ci/run`) and `npm run api:update`: API Extractor's report of every
 * entry point the two packages publish (`scripts/pack.ts`: the widget's `.`, `/element`, `/labels`,
 * `/loader`; the server's `.` and its subpaths), made from the built declarations in `dist/`, one config a
 * subpath in `etc/api-extractor/` and one report a subpath in `etc/api/`, checked in: a change to the public
 * surface of either package is a diff in review.
 * - `check:api` (API Extractor's production mode): fails when a report differs from the checked-in one,
 *   printing the diff, when one is missing, when a report in `etc/api/` has no config any more, or (after
 *   `npm run pack`) when a subpath the packages export has no config.
 * - `api:update` (its local mode): rewrites the reports (and deletes those of entries that are gone).
 * Both read `dist/`: run `npm run build` first (refused when the build is missing or older than `src/`).
 * Only the report: no `.d.ts` rollup, no doc model; release tags and TSDoc syntax are not ours (no
 * `@public`/`@beta`, `@module` comments), so their messages are off (`etc/api-extractor/base.json`); what
 * API Extractor finds otherwise, e.g. `ae-forgotten-export`, is written into the report for review.
 * Each report is headed by its package's name (`ExtractorConfig.prepare` is given it: the repository's
 * package.json is the workspace's), so run the configs through this script rather than `api-extractor run`.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import {
  CompilerState,
  ConsoleMessageId,
  Extractor,
  ExtractorConfig,
  type ExtractorMessage,
  type ExtractorResult,
} from '@microsoft/api-extractor'
import { buildState } from '../src/server/build-freshness.ts'

const ROOT = join(import.meta.dirname, '..')
const CONFIG_DIR = join(ROOT, 'etc', 'api-extractor')
const REPORT_DIR = join(ROOT, 'etc', 'api')
const update = process.argv.includes('--update')
const command = update ? 'api:update' : 'check:api'

/** What `npm run build` makes the declarations from. */
const TYPE_SOURCES = ['src', 'tsconfig.json', 'config/tsconfig.types.json', 'config/tsconfig.server.json']

/** A config per entry point: `<package>[.<subpath>].json`; the shared settings are in `*base.json`. */
const configFiles = readdirSync(CONFIG_DIR)
  .filter((name) => name.endsWith('.json') && !name.endsWith('base.json'))
  .sort()
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

const configs = configFiles.map((name) => {
  const configObjectFullPath = join(CONFIG_DIR, name)
  const packageName = name.split('.')[0] as string
  const config = ExtractorConfig.prepare({
    configObject: ExtractorConfig.loadFile(configObjectFullPath),
    configObjectFullPath,
    packageJsonFullPath: join(ROOT, 'package.json'),
    packageJson: { name: packageName, version },
    // Checked below, with what to do about it.
    ignoreMissingEntryPoint: true,
  })
  return { name, packageName, config }
})

const entries = configs.map(({ config }) => config.mainEntryPointFilePath)
const missing = entries.filter((path) => !existsSync(path)).map((path) => relative(ROOT, path))
if (missing.length > 0) {
  console.error(`${command}: ${missing.join(', ')} missing: run \`npm run build\` first`)
  process.exit(1)
}
const sources = TYPE_SOURCES.map((path) => join(ROOT, path))
if (buildState(sources, entries) === 'stale') {
  console.error(`${command}: the declarations in dist/ are older than src/: run \`npm run build\` first`)
  process.exit(1)
}

/**
 * With the packages staged by `npm run pack` (as in CI), every subpath they export types for must have its
 * config here: a new subpath without one would have no report. Their `types` paths are those under `dist/`.
 */
const unreported: string[] = []
for (const dir of ['widget', 'server']) {
  const manifestPath = join(ROOT, 'dist', 'pack', dir, 'package.json')
  if (!existsSync(manifestPath)) continue
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    name: string
    exports: Record<string, string | { types?: string }>
  }
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string' || !target.types) continue
    const types = join(ROOT, target.types)
    const covered = configs.some(
      ({ packageName, config }) => packageName === manifest.name && config.mainEntryPointFilePath === types,
    )
    if (!covered) unreported.push(`${manifest.name} ${subpath} (${target.types})`)
  }
}
if (unreported.length > 0) {
  console.error(`${command}: no config in etc/api-extractor/ for ${unreported.join(', ')}: add one`)
  process.exit(1)
}

/** One TypeScript program a package, shared by its entry points' runs. */
const programs = new Map<string, CompilerState>()
function programOf(packageName: string, config: ExtractorConfig): CompilerState {
  let state = programs.get(packageName)
  if (!state) {
    const additionalEntryPoints = configs
      .filter((other) => other.packageName === packageName)
      .map((other) => other.config.mainEntryPointFilePath)
    state = CompilerState.create(config, { additionalEntryPoints })
    programs.set(packageName, state)
  }
  return state
}

/** Exported names in a report (`export interface X`, `export function f(`, `export { X }`...). */
function exportCount(report: string): number {
  const declared = report.match(
    /^export (?:declare )?(?:abstract )?(?:class|const|enum|function|interface|let|namespace|type|var) /gm,
  )
  const reexported = [...report.matchAll(/^export \{([^}]*)\}/gm)].flatMap((match) =>
    (match[1] as string).split(',').filter((name) => name.trim() !== ''),
  )
  return (declared?.length ?? 0) + reexported.length
}

/** Its preamble (the TypeScript it bundles) once, not once an entry point. */
function quietPreamble(message: ExtractorMessage): void {
  if (message.messageId === ConsoleMessageId.Preamble) message.handled = true
}

console.log(
  `${command}: API Extractor ${Extractor.version}, ${update ? 'writing' : 'checking'} ${relative(ROOT, REPORT_DIR)}/`,
)
const failed: string[] = []
const expectedReports = new Set<string>()
for (const { name, packageName, config } of configs) {
  console.log(`\n${command}: etc/api-extractor/${name} (${relative(ROOT, config.mainEntryPointFilePath)})`)
  const result: ExtractorResult = Extractor.invoke(config, {
    localBuild: update,
    printApiReportDiff: !update,
    compilerState: programOf(packageName, config),
    messageCallback: quietPreamble,
  })
  for (const { fileName } of config.reportConfigs) {
    expectedReports.add(fileName)
    const report = join(config.reportFolder, fileName)
    const shown = relative(ROOT, report)
    if (!result.succeeded) failed.push(shown)
    else if (existsSync(report)) {
      const note = result.apiReportChanged ? 'updated' : 'unchanged'
      console.log(`${shown}: ${note}, ${exportCount(readFileSync(report, 'utf8'))} exports`)
    }
  }
}

for (const file of readdirSync(REPORT_DIR).filter((name) => name.endsWith('.api.md'))) {
  if (expectedReports.has(file)) continue
  const shown = relative(ROOT, join(REPORT_DIR, file))
  if (update) {
    rmSync(join(REPORT_DIR, file))
    console.log(`${shown}: deleted (no config in etc/api-extractor/ any more)`)
  } else {
    console.error(`${shown}: no config in etc/api-extractor/ makes it: delete it (npm run api:update does)`)
    failed.push(shown)
  }
}

if (failed.length > 0) {
  console.error(`\n${command}: failed: ${failed.join(', ')}`)
  if (!update) {
    console.error(
      'If the change to the public API is meant, run `npm run build && npm run api:update` and commit' +
        " etc/api/ with it (API Extractor's diff is above; the new reports are in dist/api-report/).",
    )
  }
  process.exit(1)
}
console.log(
  `\n${command}: ${configs.length} entry points, reports in ${relative(ROOT, REPORT_DIR)}/ up to date`,
)
