/**
 * @module `npm run check:api` (run by `.ci/run`) and `npm run api:update`: API Extractor's report of every
 * entry point the two packages publish, one report an entry in `etc/api/`, checked in: a change to the
 * public surface of either package is a diff in review. The entries are the table in
 * `scripts/package-entries.ts`, from which `npm run pack` also writes the packages' `exports`; each entry's
 * config is made here from that row and its package's base in `etc/api-extractor/`, so an entry the
 * packages export always has a report.
 * - `check:api` (API Extractor's production mode): fails when a report differs from the checked-in one,
 *   printing the diff, when one is missing, or when a report in `etc/api/` has no entry any more.
 * - `api:update` (its local mode): rewrites the reports (and deletes those of entries that are gone).
 * Both read `dist/`: run `npm run build` first (refused when the build is missing or older than `src/`).
 * Only the report: no `.d.ts` rollup, no doc model; release tags and TSDoc syntax are not ours (no
 * `@public`/`@beta`, `@module` comments), so their messages are off (`etc/api-extractor/base.json`); what
 * API Extractor finds otherwise, e.g. `ae-forgotten-export`, is written into the report for review.
 * Each report is headed by its package's name (`ExtractorConfig.prepare` is given it: the repository's
 * package.json is the workspace's), so there is no config file to hand to `api-extractor run`.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import {
  CompilerState,
  ConsoleMessageId,
  Extractor,
  ExtractorConfig,
  type ExtractorMessage,
  type ExtractorResult,
  type IConfigFile,
} from '@microsoft/api-extractor'
import { buildState } from '../src/server/build-freshness.ts'
import { PACKAGE_ENTRIES, type PackageName, reportName } from './package-entries.ts'

const ROOT = join(import.meta.dirname, '..')
const CONFIG_DIR = join(ROOT, 'etc', 'api-extractor')
const REPORT_DIR = join(ROOT, 'etc', 'api')
const update = process.argv.includes('--update')
const command = update ? 'api:update' : 'check:api'

/** What `npm run build` makes the declarations from. */
const TYPE_SOURCES = ['src', 'tsconfig.json', 'config/tsconfig.types.json', 'config/tsconfig.server.json']

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

/** Each package's shared settings: its compiler view of `dist/` (over `base.json`'s report settings). */
const BASE_CONFIG: Record<PackageName, string> = {
  'offer-widget': 'widget.base.json',
  'offer-widget-server': 'server.base.json',
}

/**
 * A base config and the one it `extends`, merged as API Extractor merges them (its `loadFile` would also
 * validate the base as a whole config, which it is not: it names no entry point).
 */
function readBase(path: string): IConfigFile {
  const { extends: parent, ...own } = JSON.parse(readFileSync(path, 'utf8')) as IConfigFile
  return parent ? { ...readBase(join(dirname(path), parent)), ...own } : own
}

/** One config an entry of the table: the package's base, the entry's declarations, its report's name. */
const configs = Object.entries(PACKAGE_ENTRIES).flatMap(([name, entries]) => {
  const packageName = name as PackageName
  const configObjectFullPath = join(CONFIG_DIR, BASE_CONFIG[packageName])
  const base = readBase(configObjectFullPath)
  return entries.map(({ subpath, types }) => {
    const reportFileName = reportName(packageName, subpath)
    const config = ExtractorConfig.prepare({
      configObject: {
        ...base,
        // API Extractor's loadFile resolves a file's relative folder; here the root is given.
        projectFolder: ROOT,
        mainEntryPointFilePath: `<projectFolder>/${types}`,
        apiReport: { ...base.apiReport, enabled: true, reportFileName },
      },
      configObjectFullPath,
      packageJsonFullPath: join(ROOT, 'package.json'),
      packageJson: { name: packageName, version },
      // Checked below, with what to do about it.
      ignoreMissingEntryPoint: true,
    })
    return { name: `${packageName} ${subpath}`, packageName, config }
  })
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
  console.log(`\n${command}: ${name} (${relative(ROOT, config.mainEntryPointFilePath)})`)
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
    console.log(`${shown}: deleted (its entry is gone from scripts/package-entries.ts)`)
  } else {
    console.error(
      `${shown}: no entry in scripts/package-entries.ts makes it: delete it (npm run api:update does)`,
    )
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
